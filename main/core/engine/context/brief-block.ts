import type { Memory } from '../../../../common/memory.js';
import { formatLocalDate, formatLocalIso, parseLooseDate } from '../../platform/config/clock.js';
import { EMPTY_BLOCK, textBlock, type ContextBlock } from './context-block.js';
import { memoByList } from './list-memo.js';
import { say, type ContextLanguage } from '../../platform/text/context-language.js';

/**
 * BRIEF-1's last step: the morning check's memory exists so the role can report on its own at
 * the day's first interaction ("the PR is not merged yet", "CI failed last night") instead of
 * waiting for the user to ask. It is
 * written as a low-priority daily memory (so that forgetting takes it after a week), which the
 * long-term block would never show; this opening note carries today's brief instead, for the
 * session's first reply only (it is left out of the snapshot a compaction re-injects).
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
