/**
 * The sleep window (SLEEP-1, seed 000 §作息): ROLE_SLEEP_START–ROLE_SLEEP_END in local time,
 * 22:00–06:00 by default, crossing midnight when start > end. Start is inside, end is outside.
 * Start == end means no window at all (a role that never sleeps), not a 24-hour sleep.
 */
function minutesOf(hhmm: string): number {
  const [h = '0', m = '0'] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

export function isInSleepWindow(start: string, end: string, now: Date): boolean {
  const s = minutesOf(start);
  const e = minutesOf(end);
  if (s === e) return false;
  const t = now.getHours() * 60 + now.getMinutes();
  return s < e ? t >= s && t < e : t >= s || t < e;
}
