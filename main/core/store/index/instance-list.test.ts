import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../bench/generate-memories.js';
import { parseByHand, parseInstances, parseWithJson } from './instance-list.js';

/** A list as memories_vocab gives it: ascending docs, each instance doc*5 + a column code (0, 1, 3 or 4). */
function randomList(seed: number, instances: number): string {
  const random = seededRandom(seed);
  const codes = [0, 1, 3, 4];
  const values: number[] = [];
  let doc = Math.floor(random() * 3);
  while (values.length < instances) {
    for (let n = 1 + Math.floor(random() * 4); n > 0 && values.length < instances; n -= 1)
      values.push(doc * 5 + codes[Math.floor(random() * codes.length)]!);
    doc += 1 + Math.floor(random() * (random() < 0.1 ? 100_000 : 5));
  }
  return values.join(',');
}

const plain = (matches: ReturnType<typeof parseByHand>) => matches && { docs: [...matches.docs], freq: [...matches.freq] };

describe('the instance list readers', () => {
  it('give the same memories and weighted frequencies', () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const list = randomList(seed, 1 + seed * 37);
      const byJson = plain(parseWithJson(list));
      expect(byJson, list.slice(0, 60)).toBeDefined();
      expect(plain(parseByHand(list))).toEqual(byJson);
    }
    // Summary 3, tags 2, body 1, cues 2, summed per memory; a rowid at the Int32 limit still fits.
    expect(plain(parseByHand('0,1,3,4,10,19,10737418235'))).toEqual({ docs: [0, 2, 3, 2147483647], freq: [8, 3, 2, 3] });
    expect(plain(parseWithJson('0,1,3,4,10,19,10737418235'))).toEqual({ docs: [0, 2, 3, 2147483647], freq: [8, 3, 2, 3] });
  });

  it.each([
    ['10,5', 'out of order'],
    ['2', 'a column the table does not have (code 2)'],
    ['10737418240', 'a rowid past the Int32 limit'],
    ['1,,2', 'an empty item'],
    ['1,a', 'not a number'],
    ['1,', 'a trailing comma'],
  ])('leave %s to the SQL ranking (%s)', (list) => {
    expect(parseWithJson(list)).toBeUndefined();
    expect(parseByHand(list)).toBeUndefined();
  });

  it('read no list as no memories', () => {
    for (const read of [parseWithJson, parseByHand, parseInstances])
      for (const list of [null, '']) expect(plain(read(list))).toEqual({ docs: [], freq: [] });
  });

  it('switch from the native reader to the loop after the first lists of a process, with the same answers', () => {
    const list = randomList(99, 500);
    const answers = Array.from({ length: 8 }, () => plain(parseInstances(list)));
    for (const answer of answers) expect(answer).toEqual(plain(parseWithJson(list)));
  });
});
