import path from 'node:path';
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
  const zone = benchUserZone().ROLE_TIMEZONE!;
  const offset = zoneOffsetMinutes(zone, new Date());
  const local = new Date(Date.now() + offset * 60_000); // its UTC fields are the zone's wall clock
  const two = (n: number) => String(n).padStart(2, '0');
  const sign = offset < 0 ? '-' : '+';
  const zoneText = `${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}T${hhmm}:00${zoneText}`;
}
