import { expiryTime } from '../../store/memory/memory-expiry.js';
import { isSessionGrant } from '../../store/memory/grant-scope.js';
import type { InboxItem, SleepPlan } from './sleep-plan.js';

/**
 * A temporary grant survives consolidation as one (MEM-8: a one-time permission
 * consolidated into a standing rule would later authorise too much; issue 12). A planner is asked to keep an inbox item's
 * `expires` on the memory it creates (sleep-plan.ts), and the local planner does; a model may
 * still drop it, or rewrite `本工作階段（session …，<day> 授權）` as a bare 本工作階段 — and the
 * one-time `force push` would then be an `important` rule for good. So before a plan is recorded,
 * a created memory whose sources carried grants gets the narrowest of them back when its own
 * `expires` is not one of them: a session grant (it ends with its day at the latest), else the
 * earliest date, else the first condition. Mixing a grant with lasting words in one memory is the
 * planner's mistake; the grant's limit wins then (failing closed costs a repeat, not a push).
 */
function narrowest(grants: readonly string[]): string {
  const session = grants.find((expires) => isSessionGrant({ expires }));
  if (session) return session;
  const dated = grants
    .map((expires) => ({ expires, time: expiryTime(expires)?.getTime() }))
    .filter((g): g is { expires: string; time: number } => g.time !== undefined)
    .sort((a, b) => a.time - b.time);
  return dated[0]?.expires ?? grants[0]!;
}

export function keepSourceGrants(
  plan: SleepPlan,
  items: readonly Pick<InboxItem, 'id' | 'expires'>[],
): { plan: SleepPlan; kept: string[] } {
  const grantOf = new Map(items.flatMap((item) => (item.expires?.trim() ? [[item.id, item.expires.trim()] as const] : [])));
  if (!grantOf.size) return { plan, kept: [] };
  const kept: string[] = [];
  const create = plan.create.map((created) => {
    const grants = created.sources.flatMap((id) => (grantOf.has(id) ? [grantOf.get(id)!] : []));
    if (!grants.length || grants.includes(created.expires.trim())) return created;
    const expires = narrowest(grants);
    kept.push(
      `created memory ${created.key} keeps the grant of its sources (expires: ${expires}; the plan said ${created.expires ? `"${created.expires}"` : 'none'})`,
    );
    return {
      ...created,
      expires,
      relevance: created.relevance.includes('temporary') ? created.relevance : [...created.relevance, 'temporary'],
    };
  });
  return { plan: { ...plan, create }, kept };
}
