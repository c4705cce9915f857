import * as chrono from 'chrono-node';
import { formatLocalDate } from '../../platform/config/clock.js';

/**
 * Relative dates in what the user said, resolved against the turn's own time in the user's zone
 * (issue 19: "下週一" read a week later is another Monday).
 * Design notes: docs/design-notes.md, "main/core/engine/capture/relative-dates.ts".
 */
export interface DateMention {
  /** The words as written. */
  text: string;
  /** Where they start in the text. */
  index: number;
  /** The local day they mean, `yyyy-MM-dd`. */
  date: string;
}

const NUMERALS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 兩: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** 3, 十, 十二, 二十, 二十五, 兩 → a number (1–99); undefined for anything else. */
function numberOf(text: string): number | undefined {
  if (/^\d{1,3}$/.test(text)) return Number(text);
  const match = /^([一二兩两三四五六七八九])?(十)?([一二三四五六七八九])?$/.exec(text);
  if (!match || !text) return undefined;
  const [, tens, ten, ones] = match;
  if (ten) return (tens ? NUMERALS[tens]! : 1) * 10 + (ones ? NUMERALS[ones]! : 0);
  if (tens && !ones) return NUMERALS[tens];
  return undefined;
}

const WEEKDAY: Record<string, number> = {
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  日: 7,
  天: 7,
  '1': 1,
  '2': 2,
  '3': 3,
  '4': 4,
  '5': 5,
  '6': 6,
  '7': 7,
};

const day = (now: Date, offset: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
/** Monday (1) … Sunday (7) of the local day. */
const isoWeekday = (date: Date) => ((date.getDay() + 6) % 7) + 1;
const mondayOf = (now: Date, weeks: number) => day(now, 1 - isoWeekday(now) + 7 * weeks);

/** The nearest date with this month and day (half a year either side), or undefined if none exists. */
function nearestMonthDay(now: Date, month: number, dayOfMonth: number): Date | undefined {
  if (month < 1 || month > 12 || dayOfMonth < 1 || dayOfMonth > 31) return undefined;
  const today = day(now, 0).getTime();
  let best: Date | undefined;
  for (const year of [now.getFullYear() - 1, now.getFullYear(), now.getFullYear() + 1]) {
    const candidate = new Date(year, month - 1, dayOfMonth);
    if (candidate.getMonth() !== month - 1) continue; // 2/30, or 2/29 of a common year
    if (!best || Math.abs(candidate.getTime() - today) < Math.abs(best.getTime() - today)) best = candidate;
  }
  return best;
}

interface Rule {
  pattern: RegExp;
  resolve(match: RegExpExecArray, now: Date): Date | undefined;
}

const WEEK = '(?:週|周|星期|禮拜|礼拜)';
const NUM = '(\\d{1,3}|[一二兩两三四五六七八九十]{1,3})';
const AFTER = '(?:之後|之后|以後|以后|後|后)';
const BEFORE = '(?:之前|以前|前)';

const RULES: readonly Rule[] = [
  // Month ends and starts (chrono reads none of these in Chinese).
  {
    pattern: /(下下|下|上|這|这|本)?(?:個|个)?月(底|末|初)/g,
    resolve: (m, now) => monthEdge(now, { 下下: 2, 下: 1, 上: -1 }[m[1] ?? ''] ?? 0, m[2] === '初'),
  },
  // 下週一, 下下星期三, 上禮拜五, 這週日, 本周六, 下週末.
  {
    pattern: new RegExp(`(下下|下|上上|上|這|这|本)(?:個|个)?${WEEK}([一二三四五六日天1-7]|末)`, 'g'),
    resolve: (m, now) => {
      const weeks = { 下下: 2, 下: 1, 上上: -2, 上: -1 }[m[1]!] ?? 0;
      const weekday = m[2] === '末' ? 6 : WEEKDAY[m[2]!]!;
      const monday = mondayOf(now, weeks);
      return day(monday, weekday - 1);
    },
  },
  // A bare weekday: the next one, today included (每週五 is a recurrence; 一週 is a duration).
  {
    pattern: new RegExp(`(?<![上下這这本每個个一兩两二三四五六七八九十\\d])${WEEK}([一二三四五六日天])`, 'g'),
    resolve: (m, now) => day(now, (WEEKDAY[m[1]!]! - isoWeekday(now) + 7) % 7),
  },
  // N 天後 / N 週後 / N 個月後 / N 天前 (chrono reads 三天後 but not 兩週後 or 兩個禮拜後).
  {
    pattern: new RegExp(`${NUM}\\s*(?:個|个)?\\s*(天|日|${WEEK}|月)\\s*(${AFTER}|${BEFORE})`, 'g'),
    resolve: (m, now) => {
      const n = numberOf(m[1]!);
      if (n === undefined) return undefined;
      const sign = /前/.test(m[3]!) ? -1 : 1;
      if (m[2] === '月') return addMonths(now, sign * n);
      return day(now, sign * n * (m[2] === '天' || m[2] === '日' ? 1 : 7));
    },
  },
  // Days around today; the longer words first (大後天 before 後天, 大前天 before 前天).
  {
    pattern: /大後天|大后天|大前天|後天|后天|前天|明天|明日|明早|明晚|今天|今日|今晚|今早|今夜|昨天|昨日|昨晚/g,
    resolve: (m, now) => day(now, DAY_WORDS[m[0]] ?? 0),
  },
  { pattern: /\bthe day after tomorrow\b|\bday after tomorrow\b/gi, resolve: (_m, now) => day(now, 2) },
  { pattern: /\bthe day before yesterday\b/gi, resolve: (_m, now) => day(now, -2) },
  // M/D (not a fraction or a path: no digit or slash around it) and M月D日/號.
  { pattern: /(?<![\d/.])(\d{1,2})\/(\d{1,2})(?![\d/])/g, resolve: (m, now) => nearestMonthDay(now, Number(m[1]), Number(m[2])) },
  {
    pattern: /(?<!\d|年)(\d{1,2}|[一二三四五六七八九十]{1,3})\s*月\s*(\d{1,2}|[一二三四五六七八九十]{1,3})\s*(?:日|號|号)/g,
    resolve: (m, now) => {
      const month = numberOf(m[1]!);
      const dayOfMonth = numberOf(m[2]!);
      return month && dayOfMonth ? nearestMonthDay(now, month, dayOfMonth) : undefined;
    },
  },
];

const DAY_WORDS: Record<string, number> = {
  大後天: 3,
  大后天: 3,
  大前天: -3,
  後天: 2,
  后天: 2,
  前天: -2,
  明天: 1,
  明日: 1,
  明早: 1,
  明晚: 1,
  今天: 0,
  今日: 0,
  今晚: 0,
  今早: 0,
  今夜: 0,
  昨天: -1,
  昨日: -1,
  昨晚: -1,
};

/** The same day N months on, or that month's last day when it is shorter (1/31 + 1 month → 2/28). */
function addMonths(now: Date, months: number): Date {
  const last = new Date(now.getFullYear(), now.getMonth() + months + 1, 0);
  return new Date(last.getFullYear(), last.getMonth(), Math.min(now.getDate(), last.getDate()));
}

function monthEdge(now: Date, months: number, start: boolean): Date {
  return start ? new Date(now.getFullYear(), now.getMonth() + months, 1) : new Date(now.getFullYear(), now.getMonth() + months + 1, 0);
}

/** What chrono may add: English words naming a day, not a bare clock time ("at 3pm") or a year. */
function chronoMentions(text: string, now: Date): DateMention[] {
  if (!/[a-z]/i.test(text)) return [];
  return chrono.en.casual.parse(text, now, { forwardDate: false }).flatMap((result) => {
    const known = result.start;
    if (!known.isCertain('day') && !known.isCertain('weekday')) return []; // a clock time alone is no date
    return [{ text: result.text, index: result.index, date: formatLocalDate(known.date()) }];
  });
}

/** Every date the text names, resolved against `now` (the turn's time), in order of appearance. */
export function findDateMentions(input: string, now: Date): DateMention[] {
  // NFKC keeps every index (full-width ３/１３ → 3/13 one for one) for the forms we read.
  const text = input.normalize('NFKC').length === input.length ? input.normalize('NFKC') : input;
  const found: DateMention[] = [];
  const taken: Array<[number, number]> = [];
  const free = (start: number, end: number) => taken.every(([s, e]) => end <= s || start >= e);
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (let match = rule.pattern.exec(text); match; match = rule.pattern.exec(text)) {
      const start = match.index;
      const end = start + match[0].length;
      if (!free(start, end)) continue;
      const date = rule.resolve(match, now);
      if (!date) continue;
      taken.push([start, end]);
      found.push({ text: input.slice(start, end), index: start, date: formatLocalDate(date) });
    }
  }
  // chrono sees the text with the claimed words blanked out, so it cannot read them again.
  let rest = text;
  for (const [start, end] of taken) rest = rest.slice(0, start) + ' '.repeat(end - start) + rest.slice(end);
  for (const mention of chronoMentions(rest, now)) {
    const end = mention.index + mention.text.length;
    if (free(mention.index, end)) found.push({ ...mention, text: input.slice(mention.index, end) });
  }
  return found.sort((a, b) => a.index - b.index);
}
