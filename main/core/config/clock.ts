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
  const offsetMinutes = -date.getTimezoneOffset();
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  return `${formatLocalDate(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Parse the date formats found in memory files (ISO, `yyyy/MM/dd HH:mm:ss`, `yyyy-MM-dd`). */
export function parseLooseDate(value: string | undefined | null): Date | undefined {
  if (!value) return undefined;
  const text = String(value).trim();
  if (!text) return undefined;
  const slash = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (slash) {
    const [, y, mo, d, h = '0', mi = '0', s = '0'] = slash;
    return new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  }
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (dateOnly) return new Date(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]));
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? undefined : time;
}
