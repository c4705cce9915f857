import path from 'node:path';
import { formatUtcOffset, isoString } from '../main/core/platform/config/clock.js';
import { zoneOffsetMinutes } from '../main/core/platform/config/time-zone.js';

/**
 * The environment a bench's Kioku processes run in: an isolated home (roles, memories, socket
 * folder under `home`), the caller's PATH and zone, UTF-8, nothing else from this shell.
 */
export function benchHomeEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
    ROLE_HOME: path.join(home, 'roles'),
    ROLE_MEMORY_HOME: path.join(home, 'memory'),
    XDG_RUNTIME_DIR: home,
    ...extra,
  };
}

/**
 * The user's zone as the benches that time start-up (hooks, CLI) set it, in ROLE_TIMEZONE:
 * Asia/Taipei unless the caller names another. The users Kioku is made for set it on a machine
 * that runs in UTC (a server, WSL, this bench's), and every hook and command then checks and
 * applies it at start-up — until session 28 the check alone was 12–17 ms of each (time-zone.ts).
 */
export const benchUserZone = (): NodeJS.ProcessEnv => ({ ROLE_TIMEZONE: process.env.ROLE_TIMEZONE || 'Asia/Taipei' });

/**
 * `hh:mm` today in the user's zone (benchUserZone), with its offset written out, for KIOKU_NOW:
 * the same instant for the bench itself, which runs in the machine's zone, and for the Kioku
 * processes it starts, which run in the user's.
 */
export function benchUserTimeToday(hhmm: string): string {
  const offset = zoneOffsetMinutes(benchUserZone().ROLE_TIMEZONE!, new Date());
  // Shifted by the zone's offset, the UTC date is the zone's date.
  const day = isoString(new Date(Date.now() + offset * 60_000)).slice(0, 10);
  return `${day}T${hhmm}:00${formatUtcOffset(offset)}`;
}
