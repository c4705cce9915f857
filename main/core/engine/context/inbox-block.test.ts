import { describe, expect, it } from 'vitest';
import { memoryObject } from '../../../../test/helpers/memory-object.js';
import { compareInboxIds, inboxNewestFirst } from './inbox-block.js';

/**
 * Inbox items created at the same moment are ordered by id; Kioku's own ids skip the collator
 * (its start-up is a third of `node -e 0`), which must not change the order any collator gives.
 */
const sign = (n: number) => Math.sign(n);

function randomIds(count: number, alphabet: string, seed = 17): string[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
  );
}

describe('compareInboxIds', () => {
  const plain = [
    ...randomIds(400, '0123456789abcdefghijklmnopqrstuvwxyz-'),
    ...randomIds(200, '01-az'),
    '20261129-103000-ab12',
    '20261129-103000-ab1',
    '20261129-1030',
    '2026112910',
    '-',
    '',
  ];
  for (const locale of [undefined, 'en-US', 'zh-TW', 'ja-JP', 'de-DE', 'en-US-u-va-posix', 'und']) {
    it(`orders Kioku's ids as the ${locale ?? 'default'} collator does`, () => {
      const collator = new Intl.Collator(locale);
      for (let i = 0; i < plain.length; i++)
        for (let j = i + 1; j < plain.length; j += 7) {
          const [a, b] = [plain[i]!, plain[j]!];
          expect(sign(compareInboxIds(a, b)), `${a} vs ${b}`).toBe(sign(collator.compare(a, b)));
        }
    });
  }

  it('leaves any other id to the collator (case, underscores, CJK)', () => {
    const collator = new Intl.Collator();
    for (const [a, b] of [
      ['B', 'a'],
      ['a_b', 'a-b'],
      ['記憶-2', '記憶-10'],
      ['abc', 'ABC'],
    ] as const)
      expect(sign(compareInboxIds(a, b))).toBe(sign(collator.compare(a, b)));
  });
});

describe('inboxNewestFirst', () => {
  const now = new Date('2026-06-01T12:00:00+08:00');
  const inbox = (id: string, created: string) => memoryObject(id, { category: 'inbox', created, updated: created });

  it('puts the newest first and, among items of one moment, the later id first (a collator for ids of other shapes)', () => {
    const at = '2026-05-30T09:00:00+08:00';
    const memories = [
      inbox('20260530-b', at),
      inbox('old', '2026-05-01T09:00:00+08:00'),
      inbox('20260530-a', at),
      inbox('20260530-C', at),
      inbox('20260530-c', at),
      memoryObject('long-term', { category: 'daily', created: '2026-05-31T09:00:00+08:00' }),
      inbox('newest', '2026-05-31T10:00:00+08:00'),
    ];
    const ids = inboxNewestFirst(memories, now).map((memory) => memory.id);
    // The collator puts lower case first: 'c' < 'C' < 'd'.
    expect(ids).toEqual(['newest', '20260530-C', '20260530-c', '20260530-b', '20260530-a', 'old']);
  });

  it('leaves out what has expired at the moment asked, for the same kept list asked at later moments', () => {
    const expiring = inbox('expiring', '2026-05-31T09:00:00+08:00');
    expiring.expires = '2026-06-01T13:00:00+08:00';
    const granted = inbox('granted', '2026-05-31T08:00:00+08:00');
    granted.expires = '本工作階段';
    const list = Object.freeze([expiring, granted, inbox('kept', '2026-05-30T09:00:00+08:00')]); // kept between loads (list-memo.ts)
    const ids = (at: string) => inboxNewestFirst(list, new Date(at)).map((memory) => memory.id);
    expect(ids('2026-06-01T12:59:59+08:00')).toEqual(['expiring', 'kept']);
    expect(ids('2026-06-01T13:00:00+08:00')).toEqual(['kept']);
    expect(ids('2026-06-01T12:00:00+08:00')).toEqual(['expiring', 'kept']);
  });
});
