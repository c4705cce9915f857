import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { formatCompactDateTime } from '../../platform/config/clock.js';
import { parseMemory } from './memory-file.js';

/**
 * Ids derived from what made a memory (a captured event, a sleep plan's created memory), so that
 * doing the work twice finds the first file and writes nothing. Such an id is a local time to the
 * second plus a short hash; two makers in one second can draw the same short hash. Each memory
 * therefore carries an ownership mark in its frontmatter, and a name that holds somebody else's
 * memory is passed over for the next, longer hash: a clash costs a longer file name, never a
 * memory (before, capture read a clash as "already captured" and dropped the turn).
 */

/** `<local time to the second>-<sha256(seed)>`: 6 hex digits first, longer ones for clashes. */
export function derivedIdCandidates(seed: string, at: Date): string[] {
  const hash = createHash('sha256').update(seed).digest('hex');
  const time = formatCompactDateTime(at);
  return [6, 8, 10, 12, 16].map((n) => `${time}-${hash.slice(0, n)}`);
}

/**
 * What a candidate's file holds: nothing, our memory (its frontmatter `markKey` equals `mark`),
 * an empty or unreadable memory (a power cut before the flush barrier), or somebody else's.
 */
export type DerivedSlot = 'free' | 'ours' | 'broken' | 'other';

export function inspectDerivedSlot(file: string, markKey: string, mark: string): DerivedSlot {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'free';
    throw error;
  }
  if (!text.trim()) return 'broken';
  try {
    return parseMemory(text).extra[markKey] === mark ? 'ours' : 'other';
  } catch {
    return 'broken';
  }
}
