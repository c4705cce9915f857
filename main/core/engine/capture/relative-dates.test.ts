import { afterEach, describe, expect, it } from 'vitest';
import { findDateMentions } from './relative-dates.js';

/**
 * Issue 19: relative dates resolved against the turn's own time in the user's zone. The "now"s
 * are local times (no offset), so each row means the same local day in every zone the suite runs
 * in (Taipei, Los Angeles, Kiritimati); the last block moves the zone itself.
 */
const THU = new Date(2026, 3, 9, 10, 0); // Thursday 2026-04-09
const SUN = new Date(2026, 3, 12, 21, 0); // Sunday 2026-04-12, the last day of a Monday-first week
const YEAR_END = new Date(2026, 11, 30, 23, 30); // Wednesday 2026-12-30, late evening
const MONTH_END = new Date(2026, 0, 31, 9, 0); // Saturday 2026-01-31
const LEAP = new Date(2028, 1, 28, 12, 0); // Monday 2028-02-28, a leap year

const dates = (text: string, now: Date) => findDateMentions(text, now).map((m) => [m.text, m.date]);

describe('findDateMentions: one relative expression each', () => {
  it.each([
    // zh-TW, around a Thursday
    ['今天的 demo 改到下午三點', THU, '今天', '2026-04-09'],
    ['明天要交報告', THU, '明天', '2026-04-10'],
    ['後天再說', THU, '後天', '2026-04-11'],
    ['大後天出國', THU, '大後天', '2026-04-12'],
    ['昨天修好的 bug', THU, '昨天', '2026-04-08'],
    ['前天的會議', THU, '前天', '2026-04-07'],
    ['下週一開始 release freeze', THU, '下週一', '2026-04-13'],
    ['下星期一上線', THU, '下星期一', '2026-04-13'],
    ['下禮拜一交', THU, '下禮拜一', '2026-04-13'],
    ['上週五的部署', THU, '上週五', '2026-04-03'],
    ['這週五前完成', THU, '這週五', '2026-04-10'],
    ['本週日休息', THU, '本週日', '2026-04-12'],
    ['下下週三 review', THU, '下下週三', '2026-04-22'],
    ['週五前交', THU, '週五', '2026-04-10'],
    ['星期四開會', THU, '星期四', '2026-04-09'],
    ['這個月底要結案', THU, '這個月底', '2026-04-30'],
    ['下個月初搬家', THU, '下個月初', '2026-05-01'],
    ['三天後再看', THU, '三天後', '2026-04-12'],
    ['兩週後回診', THU, '兩週後', '2026-04-23'],
    ['兩個禮拜後再說', THU, '兩個禮拜後', '2026-04-23'],
    ['一個月後續約', THU, '一個月後', '2026-05-09'],
    ['3天前壞掉的', THU, '3天前', '2026-04-06'],
    ['3/13 之前要交', THU, '3/13', '2026-03-13'],
    ['10/1 連假', THU, '10/1', '2026-10-01'],
    ['4月13日上線', THU, '4月13日', '2026-04-13'],
    ['五月一號放假', THU, '五月一號', '2026-05-01'],
    // zh-CN
    ['下周一开始冻结', THU, '下周一', '2026-04-13'],
    ['上礼拜五的会', THU, '上礼拜五', '2026-04-03'],
    ['这个月底结账', THU, '这个月底', '2026-04-30'],
    ['两个星期后复查', THU, '两个星期后', '2026-04-23'],
    ['大后天出发', THU, '大后天', '2026-04-12'],
    ['这周六加班', THU, '这周六', '2026-04-11'],
    // English
    ['the release freeze starts next Monday', THU, 'next Monday', '2026-04-13'],
    ['we deployed last Friday', THU, 'last Friday', '2026-04-03'],
    ['call me tonight', THU, 'tonight', '2026-04-09'],
    ['revisit this in two weeks', THU, 'in two weeks', '2026-04-23'],
    ['due the day after tomorrow', THU, 'the day after tomorrow', '2026-04-11'],
    ['it broke 3 days ago', THU, '3 days ago', '2026-04-06'],
    ['finish by the end of the month', THU, 'end of the month', '2026-04-30'],
    ['ship it tomorrow', THU, 'tomorrow', '2026-04-10'],
    // A Sunday: weeks run Monday to Sunday
    ['下週一開會', SUN, '下週一', '2026-04-13'],
    ['這週五已經過了', SUN, '這週五', '2026-04-10'],
    ['上週日', SUN, '上週日', '2026-04-05'],
    ['週一再說', SUN, '週一', '2026-04-13'],
    ['下週末去爬山', SUN, '下週末', '2026-04-18'],
    ['next Monday', SUN, 'next Monday', '2026-04-13'],
    // Across the year's end
    ['明天', YEAR_END, '明天', '2026-12-31'],
    ['後天開工', YEAR_END, '後天', '2027-01-01'],
    ['大後天', YEAR_END, '大後天', '2027-01-02'],
    ['下週一', YEAR_END, '下週一', '2027-01-04'],
    ['下周五', YEAR_END, '下周五', '2027-01-08'],
    ['1/2 上班', YEAR_END, '1/2', '2027-01-02'],
    ['12/25 的聚會', YEAR_END, '12/25', '2026-12-25'],
    ['月底前', YEAR_END, '月底', '2026-12-31'],
    ['下個月初', YEAR_END, '下個月初', '2027-01-01'],
    ['兩週後', YEAR_END, '兩週後', '2027-01-13'],
    ['in 3 days', YEAR_END, 'in 3 days', '2027-01-02'],
    ['next Friday', YEAR_END, 'next Friday', '2027-01-08'],
    // Across a month's end
    ['明天', MONTH_END, '明天', '2026-02-01'],
    ['這個月底', MONTH_END, '這個月底', '2026-01-31'],
    ['下個月底', MONTH_END, '下個月底', '2026-02-28'],
    ['上個月底', MONTH_END, '上個月底', '2025-12-31'],
    ['一個月後', MONTH_END, '一個月後', '2026-02-28'],
    ['下週一', MONTH_END, '下週一', '2026-02-02'],
    ['next Tuesday', MONTH_END, 'next Tuesday', '2026-02-03'],
    // A leap year
    ['明天', LEAP, '明天', '2028-02-29'],
    ['2/29 截止', LEAP, '2/29', '2028-02-29'],
    ['月底', LEAP, '月底', '2028-02-29'],
  ] as const)('%s (now %s) → %s = %s', (text, now, words, date) => {
    expect(dates(text, now)).toEqual([[words, date]]);
  });
});

describe('findDateMentions: what is not a date', () => {
  it.each([
    ['每週五開會', THU],
    ['一週一次', THU],
    ['先生說 3/4 的人同意', THU],
    ['版本 1.2/3', THU],
    ['2/29 截止', MONTH_END], // no 2/29 within half a year of 2026-01-31
    ['at 3pm we meet', THU],
    ['優先處理首先的事', THU],
  ] as const)('%s', (text, now) => {
    const found = findDateMentions(text, now);
    // 3/4 is read as a date by design (M/D); a fraction written that way is the user's to avoid.
    if (text.includes('3/4')) expect(found.map((m) => m.text)).toEqual(['3/4']);
    else expect(found).toEqual([]);
  });

  it('finds several in one sentence, in order', () => {
    expect(dates('今天先跳過 lint，下週一再恢復，deadline is next Friday', THU)).toEqual([
      ['今天', '2026-04-09'],
      ['下週一', '2026-04-13'],
      ['next Friday', '2026-04-17'],
    ]);
  });
});

describe('findDateMentions: the turn is read in the user zone', () => {
  const original = process.env.TZ;
  afterEach(() => {
    if (original === undefined) delete process.env.TZ;
    else process.env.TZ = original;
  });

  // 2026-04-09 23:30 UTC: Friday 07:30 in Taipei, still Thursday 16:30 in Los Angeles.
  const INSTANT = new Date(Date.UTC(2026, 3, 9, 23, 30));
  it.each([
    ['Asia/Taipei', '明天', '2026-04-11'],
    ['America/Los_Angeles', '明天', '2026-04-10'],
    ['Pacific/Kiritimati', '明天', '2026-04-11'],
    ['Asia/Taipei', 'tonight', '2026-04-10'],
    ['America/Los_Angeles', 'tonight', '2026-04-09'],
    ['Asia/Taipei', '這週五', '2026-04-10'],
    ['America/Los_Angeles', '這週五', '2026-04-10'],
  ] as const)('in %s, %s → %s', (zone, text, date) => {
    process.env.TZ = zone;
    expect(dates(text, INSTANT)).toEqual([[text, date]]);
  });
});
