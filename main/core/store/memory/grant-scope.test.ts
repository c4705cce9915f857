import { describe, expect, it } from 'vitest';
import { conditionWithGrantDay, isSessionGrant, sessionGrantOf } from './grant-scope.js';
import { isExpired, isInjectable, memoryExpiryTime } from './memory-expiry.js';

/**
 * Issue 12: a one-time permission ("這次可以直接 force push", stored with `expires: 本工作階段`)
 * came back in every later session. Local times throughout (no offsets): the rule is about the
 * user's local day, so it must hold the same in every zone the suite runs in.
 */
const at = (y: number, mo: number, d: number, h = 0, mi = 0) => new Date(y, mo - 1, d, h, mi);

describe('sessionGrantOf', () => {
  it.each([
    ['本工作階段（session 3f2a-b1c9，2026-04-09 授權）', { sessionId: '3f2a-b1c9', grantedDay: '2026-04-09' }],
    ['本工作階段 (session abc_123, granted 2026-04-09)', { sessionId: 'abc_123', grantedDay: '2026-04-09' }],
    [
      '本工作階段（session rollout-2026-03-01T10-00-00-0f8e，2026-04-09 授權）',
      { sessionId: 'rollout-2026-03-01T10-00-00-0f8e', grantedDay: '2026-04-09' },
    ],
    ['本工作階段', { grantedDay: '2026-04-08' }],
    ['這次', { grantedDay: '2026-04-08' }],
    ['this session only', { grantedDay: '2026-04-08' }],
    ['only for this conversation', { grantedDay: '2026-04-08' }],
  ])('%s', (expires, grant) => {
    expect(sessionGrantOf({ expires, created: '2026-04-08T21:00:00' })).toEqual(grant);
  });

  it('is not a date or a condition about something else', () => {
    for (const expires of ['2026-04-09', '2026-04-09T10:00:00Z', '這個 PR 合併後失效', '']) {
      expect(isSessionGrant({ expires }), expires).toBe(false);
    }
  });
});

describe('session grants lapse (MEM-8)', () => {
  it('a seed-era `本工作階段` (no session id) lapses when the local day it was created in ends', () => {
    const memory = { expires: '本工作階段', created: '2026-04-09T10:00:00' };
    expect(memoryExpiryTime(memory)?.getTime()).toBe(at(2026, 4, 10).getTime());
    expect(isExpired(memory, at(2026, 4, 9, 23, 59))).toBe(false);
    expect(isExpired(memory, at(2026, 4, 10))).toBe(true);
  });

  it('the day written into the grant wins over created (a sleep may rewrite created)', () => {
    const memory = { expires: '本工作階段（session s1，2026-04-09 授權）', created: '2026-04-20T10:00:00' };
    expect(isExpired(memory, at(2026, 4, 10, 8))).toBe(true);
  });

  it('with neither a day nor a readable created it is expired at once (fail closed)', () => {
    expect(isExpired({ expires: '本工作階段' }, at(2000, 1, 1))).toBe(true);
  });

  it('is never injectable by a load, even within its day; dates and conditions are as before', () => {
    const day = at(2026, 4, 9, 12);
    expect(isInjectable({ expires: '本工作階段（session s1，2026-04-09 授權）' }, day)).toBe(false);
    expect(isInjectable({ expires: '本工作階段', created: '2026-04-09T11:00:00' }, day)).toBe(false);
    expect(isInjectable({ expires: '2026-04-09' }, day)).toBe(true);
    expect(isInjectable({ expires: '2026-04-08' }, day)).toBe(false);
    expect(isInjectable({ expires: '這個 PR 合併後失效' }, day)).toBe(true);
    expect(isInjectable({ expires: '' }, day)).toBe(true);
  });
});

describe('conditionWithGrantDay', () => {
  it('adds the created day unless the text names one', () => {
    expect(conditionWithGrantDay({ expires: 'PR 合併後失效', created: '2026-04-09T10:00:00' }, 'zh')).toBe(
      'PR 合併後失效（2026-04-09 授權）',
    );
    expect(conditionWithGrantDay({ expires: 'until the PR merges', created: '2026-04-09T10:00:00' }, 'en')).toBe(
      'until the PR merges (granted 2026-04-09)',
    );
    expect(conditionWithGrantDay({ expires: 'PR 合併後失效（2026-04-01 授權）', created: '2026-04-09T10:00:00' }, 'zh')).toBe(
      'PR 合併後失效（2026-04-01 授權）',
    );
  });
});
