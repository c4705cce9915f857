/**
 * One clock for everything that reads the time (sleep window, ages, forgetting, timestamps
 * written). `KIOKU_NOW=<ISO 8601>` freezes it so that behaviour over days can be tested.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(at: Date | string): Clock {
  const time = typeof at === 'string' ? new Date(at) : at;
  return { now: () => new Date(time.getTime()) };
}

/** The clock for an environment: KIOKU_NOW when set and valid, else the system clock. */
export function clockFromEnv(env: NodeJS.ProcessEnv): Clock {
  const value = env.KIOKU_NOW?.trim();
  if (!value) return systemClock;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) return systemClock;
  return fixedClock(time);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Date#toISOString, written out for the years 0–9999 (anything else, and an invalid date, goes to
 * the built-in): the built-in's first call in a process was 0.07–0.3 ms, and the hook client
 * calls it once per event to date the event (issue 17).
 */
export function isoString(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  return `${pad(year, 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}Z`;
}

/** `yyyy/MM/dd HH:mm:ss` in local time (OPS-3 log lines, human output). */
export function formatLocalDateTime(date: Date): string {
  return `${date.getFullYear()}/${pad(date.getMonth() + 1)}/${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** `yyyy-MM-dd` in local time (dates in memory files, archive folders). */
export function formatLocalDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** `yyyyMMdd-HHmmss` in local time (export file names, archive folders). */
export function formatCompactDateTime(date: Date): string {
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/**
 * ISO 8601 with the local offset (2026-11-30T12:00:00+08:00): what Kioku writes into
 * frontmatter, readable by people in Taiwan and unambiguous for machines.
 */
export function formatLocalIso(date: Date): string {
  return `${formatLocalDate(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}${formatUtcOffset(-date.getTimezoneOffset())}`;
}

/** Minutes east of UTC as ISO 8601 writes them: 480 → `+08:00`, -210 → `-03:30`. */
export function formatUtcOffset(offsetMinutes: number): string {
  const abs = Math.abs(offsetMinutes);
  return `${offsetMinutes >= 0 ? '+' : '-'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * A date written in one of the shapes memory files use (the original role scripts, hand edits, Kioku):
 * `yyyy/MM/dd` or `yyyy-MM-dd` (one-digit month and day too), optionally followed by
 * ` HH:mm[:ss]` or `THH:mm[:ss[.fff]]`, optionally followed (a space allowed) by `Z`, `±HH:MM` or
 * `±HHMM`. Without a zone the time is local; `dateOnly` says no time was written (callers decide
 * what a bare day means: expiry runs to the end of that local day, MEM-8). Undefined for anything
 * else, and for impossible dates (2026/02/30, 25:00), which `new Date` would silently roll over.
 */
export interface StrictDate {
  date: Date;
  dateOnly: boolean;
}

const STRICT_DATE =
  /^(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?:[ Tt](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The shape Kioku writes (`formatLocalIso`: `2026-11-29T10:00:00+08:00`, or `Z`), read natively:
 * `Date.parse` is exact for it, but rolls over what this parser refuses (02-30, 24:00), so only a
 * real date takes this way; anything else, valid or not, goes through STRICT_DATE. Timing every
 * inbox item's date this way was a tenth of a SessionStart without the daemon (issue 17).
 */
const KIOKU_ISO =
  /^([1-9]\d{3})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:Z|[+-](?:(?:0\d|1[0-7]):[0-5]\d|18:00))$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function kiokuIsoTime(text: string): number | undefined {
  const match = KIOKU_ISO.exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (Number(match[3]) > DAYS_IN_MONTH[month - 1]! + (leap ? 1 : 0)) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : time;
}

export function parseStrictDate(value: string): StrictDate | undefined {
  const text = value.trim();
  const fast = kiokuIsoTime(text);
  if (fast !== undefined) return { date: new Date(fast), dateOnly: false };
  const match = STRICT_DATE.exec(text);
  if (!match) return undefined;
  const [, y, , mo, d, h, mi, s, fraction, zone] = match;
  const f = {
    year: Number(y),
    month: Number(mo) - 1,
    day: Number(d),
    hour: Number(h ?? 0),
    minute: Number(mi ?? 0),
    second: Number(s ?? 0),
    ms: fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0,
  };
  if (f.month > 11 || f.day < 1 || f.hour > 23 || f.minute > 59 || f.second > 59) return undefined;
  let date: Date;
  if (zone) {
    const offsetMinutes = /^z$/i.test(zone)
      ? 0
      : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
    if (Math.abs(offsetMinutes) > 18 * 60 || Number(zone.slice(-2)) > 59) return undefined;
    const utc = new Date(Date.UTC(f.year, f.month, f.day, f.hour, f.minute, f.second, f.ms));
    if (utc.getUTCFullYear() !== f.year || utc.getUTCMonth() !== f.month || utc.getUTCDate() !== f.day) return undefined;
    date = new Date(utc.getTime() - offsetMinutes * 60_000);
  } else {
    date = new Date(f.year, f.month, f.day, f.hour, f.minute, f.second, f.ms);
    // A day past the month's end rolls over; a local time skipped by a DST jump moves an hour (kept).
    if (date.getFullYear() !== f.year || date.getMonth() !== f.month || date.getDate() !== f.day) return undefined;
  }
  return { date, dateOnly: h === undefined };
}

/**
 * Parse the date formats found in memory files: every shape parseStrictDate reads (a bare day is
 * that local day's start), anything else `Date` reads (full ISO 8601, RFC 2822), and a Date
 * (what a YAML reader with timestamps would hand over). Undefined when it is not a date.
 */
export function parseLooseDate(value: string | Date | undefined | null): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : new Date(value.getTime());
  if (!value) return undefined;
  const text = String(value).trim();
  if (!text) return undefined;
  const strict = parseStrictDate(text);
  if (strict) return strict.date;
  // An impossible day (2026/02/30) is not a date, whatever follows it; Date would roll it over.
  const day = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?![\d])/.exec(text);
  if (day && !parseStrictDate(`${day[1]}-${day[2]}-${day[3]}`)) return undefined;
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? undefined : time;
}
