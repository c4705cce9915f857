import { sleepPlanSchema, PLAN_VERSION, type SleepPlan } from '../sleep-plan.js';

/**
 * A model's parsed answer → a SleepPlan, or the reason it is not one.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/cli-planner/plan-answer.ts".
 */
export interface PlanFill {
  id: string;
  role: string;
  planner: string;
  batch: string[];
}

export type PlanAnswer = { ok: true; plan: SleepPlan } | { ok: false; reason: string };

const DIRECTIONS: Record<string, string> = {
  '使用者→角色': 'user-to-role',
  '角色→使用者': 'role-to-user',
  相互: 'mutual',
  雙向: 'mutual',
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function lowerWord(value: unknown): unknown {
  return typeof value === 'string' ? value.trim().toLowerCase() : value;
}

function stringList(value: unknown): unknown {
  if (value === null || value === undefined) return [];
  if (typeof value === 'string') return value.trim() ? [value] : [];
  if (Array.isArray(value))
    return value
      .filter((v) => v !== null && v !== undefined && String(v).trim() !== '')
      .map((v) => (typeof v === 'number' ? String(v) : v));
  return value;
}

function priority(value: unknown): unknown {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? Math.min(5, Math.max(1, Math.round(n))) : value;
}

function list(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function entries(raw: Record<string, unknown>, key: string, fix: (entry: Record<string, unknown>) => Record<string, unknown>): unknown[] {
  return list(raw[key]).map((entry) => (isObject(entry) ? fix({ ...entry }) : entry));
}

function fixMemoryFields(entry: Record<string, unknown>): Record<string, unknown> {
  for (const key of ['tags', 'cues', 'relevance', 'links', 'sources'])
    if (key in entry || key === 'sources') entry[key] = stringList(entry[key]);
  if ('priority' in entry) entry.priority = priority(entry.priority);
  return entry;
}

/** The digest is one sentence for DIGESTS.md; a model that forgot it should not cost the batch. */
function fallbackDigest(raw: Record<string, unknown>, batchSize: number): string {
  const count = (key: string) => list(raw[key]).length;
  return `整理 ${batchSize} 則工作記憶：新增 ${count('create')}、合併 ${count('merge')}、捨棄 ${count('discard')}。`;
}

export function readPlanAnswer(raw: Record<string, unknown>, fill: PlanFill): PlanAnswer {
  const candidate = {
    create: entries(raw, 'create', (c) => {
      c.category = lowerWord(c.category);
      c.memory_type = lowerWord(c.memory_type);
      c.declarative = lowerWord(c.declarative);
      if (c.expires === null || c.expires === undefined) c.expires = '';
      if (typeof c.key === 'number') c.key = String(c.key);
      return fixMemoryFields(c);
    }),
    merge: entries(raw, 'merge', fixMemoryFields),
    link: list(raw.link ?? raw.links),
    bonds: entries(raw, 'bonds', (b) => {
      const direction = typeof b.direction === 'string' ? b.direction.replace(/\s+/g, '').replace(/->/g, '→') : b.direction;
      b.direction = typeof direction === 'string' ? (DIRECTIONS[direction] ?? direction.toLowerCase()) : direction;
      return b;
    }),
    discard: entries(raw, 'discard', (d) => {
      if (d.reason === null || d.reason === undefined || (typeof d.reason === 'string' && !d.reason.trim())) d.reason = '未說明';
      return d;
    }),
    corrections: list(raw.corrections),
    supersede: list(raw.supersede ?? raw.superseded),
    digest: typeof raw.digest === 'string' && raw.digest.trim() ? raw.digest : fallbackDigest(raw, fill.batch.length),
    v: PLAN_VERSION,
    id: fill.id,
    role: fill.role,
    planner: fill.planner,
    batch: fill.batch,
  };
  const parsed = sleepPlanSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, plan: parsed.data };
  const issues = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`);
  const more = parsed.error.issues.length > 3 ? ` (+${parsed.error.issues.length - 3} more)` : '';
  return { ok: false, reason: `the plan does not match the schema — ${issues.join('; ')}${more}` };
}
