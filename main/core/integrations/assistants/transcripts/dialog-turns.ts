import type { DialogTurn } from '../../../../../common/hook-events.js';

/** One piece of dialog text as a transcript line holds it, before turns are merged. */
export interface DialogEntry {
  role: 'user' | 'assistant';
  text: string;
  timestamp?: string;
  /** Byte where the entry's line starts (recent-dialog.ts sets it when asked for offsets). */
  offset?: number;
}

export interface DialogBudget {
  /** Most turns returned (a turn is one DialogTurn: all of one side's text between the other's). */
  maxTurns: number;
  /** Most characters of turn text returned, summed over the turns (labels are the caller's). */
  maxChars: number;
}

interface PendingTurn {
  role: 'user' | 'assistant';
  /** Newest first while collecting. */
  parts: string[];
  chars: number;
  timestamp?: string;
  /** The oldest line's, so the turn's start. */
  offset?: number;
}

/**
 * Builds turns from entries that arrive newest first (the file is read backwards). Consecutive
 * entries of one side merge into one turn — seed 000: unmerged, an assistant's many text blocks
 * per turn "8 輪只剩 2 則使用者發言" ate the budget. Tells the reader when enough is collected:
 * only at a change of side, so that every collected turn is whole.
 */
export class TurnCollector {
  private readonly turns: PendingTurn[] = [];
  private completeChars = 0;

  constructor(private readonly budget: DialogBudget) {}

  /** Add an older entry; false means "enough: stop reading" (the entry was not taken). */
  add(entry: DialogEntry): boolean {
    const current = this.turns[this.turns.length - 1];
    if (current && current.role === entry.role) {
      current.parts.push(entry.text);
      current.chars += entry.text.length;
      if (entry.timestamp) current.timestamp = entry.timestamp;
      if (entry.offset !== undefined) current.offset = entry.offset;
      return true;
    }
    if (current) this.completeChars += current.chars;
    // One more whole turn than the budget lets fitDialog see whether the oldest kept answer has
    // its question; beyond the character budget, older turns can never be kept (turns are kept
    // newest-first and contiguous), once the newest question/answer pair is whole.
    const complete = this.turns.length;
    if (complete >= this.budget.maxTurns + 1 || (this.completeChars > this.budget.maxChars && complete >= 2)) return false;
    this.turns.push({ role: entry.role, parts: [entry.text], chars: entry.text.length, timestamp: entry.timestamp, offset: entry.offset });
    return true;
  }

  /** Number of turns begun so far. */
  get size(): number {
    return this.turns.length;
  }

  /**
   * The turns oldest first. `cutOff`: reading stopped at the scan budget, not at the start of the
   * file, so the oldest turn may have begun in the unread part. An assistant turn usually has
   * (its tool calls spread its text over many lines) and is dropped; a user turn is one line of
   * text in practice and is kept.
   */
  result(cutOff: boolean): DialogTurn[] {
    const oldest = this.turns[this.turns.length - 1];
    const turns = cutOff && oldest?.role === 'assistant' ? this.turns.slice(0, -1) : this.turns;
    return turns
      .slice()
      .reverse()
      .map((turn) => {
        const out: DialogTurn = { role: turn.role, text: turn.parts.slice().reverse().join('\n\n') };
        if (turn.timestamp) out.timestamp = turn.timestamp;
        if (turn.offset !== undefined) out.offset = turn.offset;
        return out;
      });
  }
}

/** Question/answer groups, oldest first: a user turn and the assistant turn after it. */
function pairUp(turns: readonly DialogTurn[]): DialogTurn[][] {
  const groups: DialogTurn[][] = [];
  for (const turn of turns) {
    const last = groups[groups.length - 1];
    if (turn.role === 'assistant' && last && last.length === 1 && last[0]!.role === 'user') last.push(turn);
    else groups.push([turn]);
  }
  return groups;
}

const SENTENCE_END = /[。！？!?.\n]/g;

/** Cut a text to `limit` characters at a sentence end when one is near, marked with "…". */
export function shortenText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  if (limit <= 1) return limit === 1 ? '…' : '';
  let cut = text.slice(0, limit - 1);
  // Never leave half of a surrogate pair (an emoji) at the cut.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  let sentenceEnd = -1;
  for (const match of cut.matchAll(SENTENCE_END)) sentenceEnd = match.index;
  if (sentenceEnd >= cut.length / 2) cut = cut.slice(0, sentenceEnd + 1);
  return `${cut.trimEnd()}…`;
}

/**
 * The newest turns that fit, oldest first. Whole question/answer pairs are dropped from the
 * oldest end (seed 000 §工作階段交接: "整輪丟棄最舊的，保持問答成對"). When not even the newest
 * pair fits, it is kept shortened (each side in proportion to its length, cut at a sentence
 * end) rather than handing over nothing at all — the last exchange is the one that matters most.
 */
export function fitDialog(turns: readonly DialogTurn[], budget: DialogBudget): DialogTurn[] {
  if (budget.maxTurns <= 0 || budget.maxChars <= 0 || turns.length === 0) return [];
  const groups = pairUp(turns);
  const kept: DialogTurn[][] = [];
  let count = 0;
  let chars = 0;
  for (let i = groups.length - 1; i >= 0; i--) {
    const group = groups[i]!;
    const groupChars = group.reduce((sum, turn) => sum + turn.text.length, 0);
    if (count + group.length > budget.maxTurns || chars + groupChars > budget.maxChars) break;
    kept.unshift(group);
    count += group.length;
    chars += groupChars;
  }
  // An answer whose question was lost (compacted away, or before the scan budget) reads as a
  // non sequitur at the top of the handoff: keep it only when it is all there is.
  while (kept.length > 1 && kept[0]!.length === 1 && kept[0]![0]!.role === 'assistant') kept.shift();
  if (kept.length > 0) return kept.flat();
  const newest = groups[groups.length - 1]!.slice(-budget.maxTurns);
  const total = newest.reduce((sum, turn) => sum + turn.text.length, 0);
  return newest.map((turn) => ({ ...turn, text: shortenText(turn.text, Math.floor((budget.maxChars * turn.text.length) / total)) }));
}
