import type { Memory } from '../../../../common/memory.js';
import { formatLocalDate, formatLocalIso, parseLooseDate } from '../../platform/config/clock.js';
import { EMPTY_BLOCK, textBlock, type ContextBlock } from './context-block.js';
import { memoByList } from './list-memo.js';
import { say, type ContextLanguage } from '../../platform/text/context-language.js';

/**
 * BRIEF-1's last step: today's brief as an opening note for the session's first reply, since
 * the low-priority daily memory it is stored as would never reach the long-term block.
 * Design notes: docs/design-notes.md, "main/core/engine/context/brief-block.ts".
 */
const BRIEF_TAGS = new Set(['brief', '晨報']);

/** A consolidated memory tagged as a brief, of any day. */
export function isBriefTagged(memory: Memory): boolean {
  if (memory.category === 'inbox') return false;
  // A plain loop: asked of every memory of a load read from the files (10,000 closures otherwise).
  for (const tag of memory.tags) if (BRIEF_TAGS.has(tag)) return true;
  return false;
}

export function isTodaysBrief(memory: Memory, now: Date): boolean {
  if (!isBriefTagged(memory)) return false;
  const created = parseLooseDate(memory.created);
  return created !== undefined && formatLocalDate(created) === formatLocalDate(now);
}

export function briefBlock(memories: readonly Memory[], now: Date, who: { name: string; language: ContextLanguage }): ContextBlock {
  const today = memoByList(memories, `brief:${formatLocalDate(now)}`, () => memories.filter((memory) => isTodaysBrief(memory, now)));
  if (today.length === 0) return EMPTY_BLOCK;
  // The newest one: a brief run twice in a morning (tray and cron) must not be reported twice.
  const newest = today.reduce((a, b) =>
    (parseLooseDate(b.created)?.getTime() ?? 0) > (parseLooseDate(a.created)?.getTime() ?? 0) ? b : a,
  );
  const at = parseLooseDate(newest.created);
  const time = at ? formatLocalIso(at).slice(11, 16) : '';
  const body = newest.body.trim() || newest.summary;
  return textBlock(
    say(
      who.language,
      `## 今天的晨間檢查（${time}）\n${body}\n\n${who.name}在這個工作階段的第一次回覆裡，用自己的語氣主動簡短提起上面的變化（使用者已經知道的就略過），不必等使用者問。`,
      `## This morning's check (${time})\n${body}\n\nIn the first reply of this session, ${who.name} brings these changes up briefly and unprompted, in its own voice (skipping what the user already knows).`,
    ),
  );
}
