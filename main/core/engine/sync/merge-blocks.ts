/**
 * Union of append-only records (X-SYNC): both sides' new records are kept, a record either side
 * removed (trimmed to the newest N, deleted by hand) stays removed, the same record is kept once,
 * and the result is ordered by time with each side's own order kept for equal times.
 */
export interface Block {
  /** What makes two records the same one (the line, or its words). */
  key: string;
  /** Milliseconds, or undefined to sit right after the record before it. */
  time: number | undefined;
  text: string;
}

export function mergeBlocks(base: Block[], ours: Block[], theirs: Block[], order: 'oldest-first' | 'newest-first'): Block[] {
  const inBase = new Set(base.map((b) => b.key));
  const inOurs = new Set(ours.map((b) => b.key));
  const inTheirs = new Set(theirs.map((b) => b.key));
  const removed = new Set([...inBase].filter((key) => !inOurs.has(key) || !inTheirs.has(key)));
  const seen = new Set<string>();
  const merged: { block: Block; time: number; seq: number }[] = [];
  let seq = 0;
  for (const side of [ours, theirs]) {
    // A record without a time sorts with the record before it on its own side.
    let previous = order === 'oldest-first' ? -Infinity : Infinity;
    for (const block of side) {
      const time = block.time ?? previous;
      previous = time;
      if (removed.has(block.key) || seen.has(block.key)) continue;
      seen.add(block.key);
      merged.push({ block, time, seq: seq++ });
    }
  }
  const sign = order === 'oldest-first' ? 1 : -1;
  merged.sort((a, b) => (a.time === b.time ? a.seq - b.seq : a.time < b.time ? -sign : sign));
  return merged.map((m) => m.block);
}

/** `2026-11-30 21:15`, `2026/11/30 03:00:12`, an ISO time: milliseconds, or undefined. */
export function timeOf(text: string): number | undefined {
  const m = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?/.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
  // Local wall-clock numbers compared as such: every record in one file was written the same way.
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}
