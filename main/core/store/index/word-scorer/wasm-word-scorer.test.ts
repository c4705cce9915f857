import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../../../../bench/generate-memories.js';
import { assembleWordScorer } from '../../../../../scripts/word-scorer-wasm.mjs';
import { SLOT_BYTES } from '../rank-pages.js';
import { SCORE_ONE_WORD_WASM_BASE64 } from './score-one-word-wasm.js';
import { scoreOneWord, type OneWordMatches, type OneWordScoring } from './wasm-word-scorer.js';

const SCORING: OneWordScoring = {
  idf: 1.7379,
  avgdl: 23.41,
  k1: 1.2,
  b: 0.75,
  typeWeights: [1.3, 1.3, 1.3, 1, 1, 1],
  priorityStep: 0.05,
};
const CODE = 3;

/** Matches of a word with their slots: some of another role, some with an expiry, every field at random. */
function randomMatches(seed: number, count: number): OneWordMatches {
  const random = seededRandom(seed);
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(1 + Math.floor(random() * count * 4));
  const docs = Int32Array.from([...chosen].sort((a, b) => a - b));
  const freqs = Int32Array.from(docs, () => 1 + Math.floor(random() * random() * 12));
  const slots = Buffer.alloc(count * SLOT_BYTES);
  for (let i = 0; i < count; i += 1) {
    const offset = i * SLOT_BYTES;
    slots.writeUInt16LE(1 + Math.floor(random() * 300), offset);
    slots[offset + 2] = random() < 0.8 ? CODE : CODE + 1;
    const priority = 1 + Math.floor(random() * 5);
    slots[offset + 3] = Math.floor(random() * 8) | (random() < 0.15 ? 0x08 : 0) | (priority << 4);
  }
  return { docs, freqs, slots, code: CODE };
}

/** The scoring loop's own arithmetic (recall-term-rank.ts scoreMatches), in JavaScript. */
function jsScore(matches: OneWordMatches, i: number): { doc: number; score: number; role: number; expiring: boolean } {
  const { idf, avgdl, k1: K1, b: B, typeWeights, priorityStep } = SCORING;
  const doc = matches.docs[i]!;
  const slot = matches.slots.subarray(i * SLOT_BYTES, (i + 1) * SLOT_BYTES);
  const D = slot[0]! | (slot[1]! << 8);
  const f = matches.freqs[i]!;
  const flags = slot[3]!;
  const text = idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * D) / avgdl)));
  const score = text * (typeWeights[flags & 0x07] ?? 1) * (1 + ((flags >> 4) - 3) * priorityStep);
  return { doc, score, role: slot[2]!, expiring: (flags & 0x08) !== 0 };
}

/** What scoreOneWord must keep, found the long way. */
function expectedCandidates(matches: OneWordMatches, limit: number) {
  const all = Array.from(matches.docs, (_, i) => jsScore(matches, i)).filter((match) => match.role === CODE);
  const always = all
    .filter((match) => !match.expiring)
    .map((match) => match.score)
    .sort((a, b) => b - a);
  const floor = always.length < limit ? -Infinity : always[limit - 1]!;
  return all.filter((match) => match.score >= floor);
}

describe('the WebAssembly word scorer (issue 17)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is the assembled score-one-word.wat, byte for byte (run scripts/write-word-scorer-wasm.mjs after editing it)', async () => {
    const wat = fs.readFileSync(path.join(import.meta.dirname, 'score-one-word.wat'), 'utf8');
    expect(Buffer.from(await assembleWordScorer(wat)).toString('base64')).toBe(SCORE_ONE_WORD_WASM_BASE64);
  });

  it('keeps the same candidates with the same scores, to the last bit, as JavaScript computes them', () => {
    for (const [seed, count, limit] of [
      [1, 50, 5],
      [2, 2000, 5],
      [3, 2000, 40],
      [4, 700, 1],
      [5, 30, 100],
    ] as const) {
      const matches = randomMatches(seed, count);
      const got = scoreOneWord(matches, SCORING, limit);
      if (got === undefined || got === 'unavailable') throw new Error(`no candidates for seed ${seed}`);
      const want = expectedCandidates(matches, limit);
      // Large words keep a few candidates, small ones every match of the role.
      if (count >= 1000) expect(want.length, `seed ${seed}`).toBeLessThan(count / 10);
      if (count < limit) expect(want.length, `seed ${seed}`).toBeGreaterThan(count / 2);
      expect(Array.from(got.docs), `seed ${seed}`).toEqual(want.map((match) => match.doc));
      expect(Array.from(got.scores), `seed ${seed}`).toEqual(want.map((match) => match.score));
      expect(Array.from(got.expiring, Boolean), `seed ${seed}`).toEqual(want.map((match) => match.expiring));
    }
  });

  it('says when a match has no slot, so that SQL ranks instead, and takes no slots that are not one a match', () => {
    const matches = randomMatches(6, 400);
    const emptied = Buffer.from(matches.slots);
    emptied.fill(0, 17 * SLOT_BYTES, 18 * SLOT_BYTES);
    expect(scoreOneWord({ ...matches, slots: emptied }, SCORING, 5)).toBeUndefined();
    expect(scoreOneWord({ ...matches, slots: matches.slots.subarray(0, 100 * SLOT_BYTES) }, SCORING, 5)).toBeUndefined();
    expect(scoreOneWord(matches, SCORING, 5)).not.toBeUndefined();
  });

  it('reuses its memory for a smaller word after a larger one', () => {
    const large = randomMatches(7, 3000);
    const small = randomMatches(8, 40);
    scoreOneWord(large, SCORING, 5);
    const got = scoreOneWord(small, SCORING, 5);
    if (got === undefined || got === 'unavailable') throw new Error('no candidates');
    expect(Array.from(got.docs)).toEqual(expectedCandidates(small, 5).map((match) => match.doc));
  });

  it('says it is unavailable where Node has no WebAssembly (--jitless)', async () => {
    vi.stubGlobal('WebAssembly', undefined);
    vi.resetModules();
    const fresh = await import('./wasm-word-scorer.js');
    expect(fresh.scoreOneWord(randomMatches(9, 20), SCORING, 5)).toBe('unavailable');
  });
});
