import { formatLocalDate } from '../../../platform/config/clock.js';
import { redact } from '../../../platform/privacy/redact.js';
import type { CollectedBatch, ExistingMemoryRef, InboxItem } from '../sleep-plan.js';

/**
 * The consolidation prompt (resources/prompts/sleep.zh-TW.md) filled for one batch. It is sent
 * every batch, so the material is rendered compactly: the inbox items whole (collect already cut
 * the batch at whole items, SLEEP-4), the existing memories one line each.
 */
export const SLEEP_PROMPT_NAME = 'sleep.zh-TW.md';

/**
 * The prompt travels as one argv entry, which Linux caps at 128 KiB (MAX_ARG_STRLEN); past it
 * the spawn fails with E2BIG. Existing-memory lines are dropped from the end (collect lists them
 * most important first) until the prompt fits; the inbox items are never cut.
 */
export const PROMPT_BYTE_LIMIT = 120_000;

export interface RoleFacts {
  name: string;
  /** The identity file's 關係定位 section, the authority for relationship records. */
  relationship?: string;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const joined = (list: readonly string[]) => list.map(oneLine).filter(Boolean).join('、');

function renderInboxItem(item: InboxItem): string {
  const facts = [`型態：${item.memory_type}`, `優先度：${item.priority}`, item.created ? `建立：${item.created}` : ''];
  const lines = [`#### 待整理 id：${item.id}`, facts.filter(Boolean).join('；')];
  if (item.tags.length) lines.push(`標籤：${joined(item.tags)}`);
  if (item.cues.length) lines.push(`線索：${joined(item.cues)}`);
  if (item.relevance.length) lines.push(`relevance：${joined(item.relevance)}`);
  lines.push(`摘要：${oneLine(item.summary)}`, '內容：', item.body.trim() || '（無）');
  return lines.join('\n');
}

/**
 * A merge is absolute (sleep-plan.ts): the model writes the target's whole resulting body. From a
 * gist alone it would drop the target's detail, so the full body is shown for the first refs
 * (collect lists the due and most related first) within these budgets, and only those may be
 * merged into; the rest are index lines for linking (merge-guard.ts holds the planner to it).
 */
export const FULL_BODY_MAX_CHARS = 1_200;
export const FULL_BODIES_BUDGET = 6_000;

function renderExisting(ref: ExistingMemoryRef, fullBody: boolean): string {
  const mark = ref.needsCorrection ? ` ⚠需更正${ref.correctionNote ? `（使用者說：${oneLine(ref.correctionNote)}）` : ''}` : '';
  const parts = [`- ${ref.id} [${ref.category}/${ref.memory_type}/p${ref.priority}]${mark} ${oneLine(ref.summary)}`];
  if (ref.tags.length) parts.push(`標籤：${joined(ref.tags)}`);
  if (ref.cues.length) parts.push(`線索：${joined(ref.cues)}`);
  if (ref.links.length) parts.push(`連結：${ref.links.join(',')}`);
  if (!fullBody && ref.gist.trim()) parts.push(`主旨：${oneLine(ref.gist)}`);
  const line = parts.join('｜');
  if (!fullBody) return line;
  const body = ref
    .body!.trim()
    .split(/\r?\n/)
    .map((l) => `    ${l}`)
    .join('\n');
  return `${line}｜可合併，全文：\n${body}`;
}

/** The ids whose full body is shown (merge targets the model may use). */
export function mergeableRefs(existing: readonly ExistingMemoryRef[]): Set<string> {
  const shown = new Set<string>();
  let used = 0;
  for (const ref of existing) {
    const size = ref.body?.trim().length ?? 0;
    if (!size || size > FULL_BODY_MAX_CHARS || used + size > FULL_BODIES_BUDGET) continue;
    shown.add(ref.id);
    used += size;
  }
  return shown;
}

export interface BuiltPrompt {
  prompt: string;
  /** Existing-memory lines left out to stay under PROMPT_BYTE_LIMIT. */
  existingDropped: number;
  /** Existing memories shown with their full body: the only allowed merge targets. */
  mergeable: Set<string>;
}

/**
 * The filled prompt. Everything from memory files is redacted first (PRIV-1: a secret a user
 * pasted into an inbox file by hand must not leave for a model). Placeholders are replaced in one
 * pass over the template, so a `{{…}}` inside a memory stays literal text.
 */
export async function buildSleepPrompt(template: string, batch: CollectedBatch, role: RoleFacts, now: Date): Promise<BuiltPrompt> {
  const inbox = await redact(batch.items.map(renderInboxItem).join('\n\n'));
  const mergeable = mergeableRefs(batch.existing);
  const existingLines = await Promise.all(batch.existing.map((ref) => redact(renderExisting(ref, mergeable.has(ref.id)))));
  const fill = (lines: readonly string[]) => {
    const values: Record<string, string> = {
      ROLE_NAME: role.name,
      ROLE_ID: batch.role,
      TODAY: formatLocalDate(now),
      RELATIONSHIP: role.relationship?.trim() ? role.relationship.trim().replace(/\n/g, '\n   ') : '（角色檔沒有關係定位段）',
      BATCH_HEADER: batch.header.trim() || `本批 ${batch.items.length} 則，另有 ${batch.left} 則留待下批`,
      INBOX: inbox,
      EXISTING: lines.length ? lines.join('\n') : '（尚無既有記憶）',
    };
    return template.replace(/\{\{([A-Z_]+)\}\}/g, (whole, key: string) => values[key] ?? whole);
  };
  let kept = existingLines.length;
  let prompt = fill(existingLines);
  while (kept > 0 && Buffer.byteLength(prompt, 'utf8') > PROMPT_BYTE_LIMIT) {
    kept = Math.max(0, kept - Math.max(1, Math.ceil(kept / 10)));
    prompt = fill(existingLines.slice(0, kept));
  }
  for (const ref of batch.existing.slice(kept)) mergeable.delete(ref.id);
  return { prompt, existingDropped: existingLines.length - kept, mergeable };
}
