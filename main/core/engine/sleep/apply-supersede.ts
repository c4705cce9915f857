import { formatLocalDate } from '../../platform/config/clock.js';
import { SUPERSEDED_AT, SUPERSEDED_BY, supersededSummary } from '../../store/memory/superseded.js';
import { rewriteExisting, type ApplyContext } from './apply-memories.js';
import type { PlanSupersede } from './sleep-plan.js';

/**
 * Issue 12, apply's step for a plan's `supersede` entries: the older memory keeps its text (it is
 * history: what the user wanted until then), gets `superseded_by`/`superseded_at`, a labelled
 * summary (〔已更正〕…, so recall shows it as past) and one body line naming what replaced it.
 * Idempotent like every apply step: a replay finds the same fields and writes nothing.
 * Returns false when the memory is gone.
 */
export function applySupersede(ctx: ApplyContext, entry: PlanSupersede, byId: string, bySummary: string | undefined): boolean {
  const target = ctx.existing.get(entry.target);
  if (!target) return false;
  return rewriteExisting(ctx, target, (current) => {
    const why = entry.reason.trim() || bySummary?.trim() || '';
    const line = `- ${formatLocalDate(ctx.at)}：已更正，改以 ${byId} 為準${why ? `（${why.replace(/\s+/g, ' ')}）` : ''}`;
    const body = current.body.includes(line) ? current.body : `${current.body.replace(/\s+$/u, '')}\n\n${line}`;
    const at = typeof current.extra[SUPERSEDED_AT] === 'string' ? current.extra[SUPERSEDED_AT] : ctx.iso;
    return {
      ...current,
      summary: supersededSummary(current.summary),
      body,
      extra: { ...current.extra, [SUPERSEDED_BY]: byId, [SUPERSEDED_AT]: at },
    };
  });
}
