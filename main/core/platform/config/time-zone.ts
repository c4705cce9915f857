import fs from 'node:fs';

/**
 * "Local time" is the user's (SLEEP-1, OPS-3; the shared rules fix timestamps to Asia/Taipei): the sleep
 * window, the brief hour, "今天", log lines and the dates written into memory files all read the
 * clock in one zone. Which zone, in order:
 *
 *   1. ROLE_TIMEZONE, when set (env or settings.json) — for a server or container whose own
 *      zone is UTC while its user lives in Taipei;
 *   2. the TZ of this process's environment;
 *   3. the machine's zone (/etc/timezone, the /etc/localtime link; what cron also uses).
 *
 * Node reads the zone from process.env.TZ and re-reads it when that is assigned, so applying the
 * setting is one assignment at start-up (applyUserTimeZone), and everything that formats local
 * time follows without passing a zone around.
 */
/**
 * TZ as this process started with it (before ROLE_TIMEZONE was applied): what the user's shell
 * said, for `kioku diagnose` to compare with the setting.
 */
const startupTz = process.env.TZ;
export const shellTimeZone = (): string | undefined => startupTz;

export type TimeZoneSource = 'setting' | 'TZ' | 'system';

export interface UserTimeZone {
  zone: string;
  source: TimeZoneSource;
}

/** Names already looked up in this process (null: unknown): a start-up asks for one zone twice (the setting's check, then applying it). */
const zoneNames = new Map<string, string | null>();

/**
 * The name this Node's clock knows `zone` by, or undefined when it does not know the zone (Node
 * silently falls back to UTC for one it does not). Usually the name as given; a name Intl accepts
 * but the clock does not — Intl ignores letter case, the clock does not (`asia/taipei`) — comes
 * back in ICU's spelling (`Asia/Taipei`), which is the one to apply: applied as typed, it left
 * the clock reading UTC while every check passed.
 *
 * Asked of every process that has ROLE_TIMEZONE set, every hook included (X-PERF), and Intl's
 * answer is slow: the first `Intl.DateTimeFormat` of a process loads ICU's locale data, 12–17 ms
 * — half of `node -e 0` — where pointing the clock at the zone is 0.1–0.3 ms. So the clock is
 * asked first: a zone name it moves with (an offset other than UTC's now or half a year away)
 * is one ICU knows, because an unknown one reads as UTC. Only a zone that reads as UTC both
 * times (UTC itself, Africa/Abidjan, a misspelt or miscased name) goes to Intl.
 */
export function canonicalTimeZone(zone: string): string | undefined {
  const name = zone.trim();
  if (!name) return undefined;
  let known = zoneNames.get(name);
  if (known === undefined) {
    known = clockMovesWith(name) ? name : intlName(name);
    zoneNames.set(name, known);
  }
  return known ?? undefined;
}

/** Whether this Node knows the IANA zone name (in any letter case; canonicalTimeZone gives its spelling). */
export function isKnownTimeZone(zone: string): boolean {
  return canonicalTimeZone(zone) !== undefined;
}

const HALF_YEAR_MS = 182 * 24 * 60 * 60 * 1000;

/**
 * Points this process's clock at `name` for two readings, then back. Only "Area/Location" names:
 * ICU also reads custom ids such as GMT+8, which Intl does not take as a zone name. Node
 * re-reads the zone on every assignment to (and deletion of) process.env.TZ.
 */
function clockMovesWith(name: string): boolean {
  if (!name.includes('/')) return false;
  const env = process.env;
  const before = env.TZ;
  const moves = () => {
    const now = Date.now();
    return new Date(now).getTimezoneOffset() !== 0 || new Date(now + HALF_YEAR_MS).getTimezoneOffset() !== 0;
  };
  if (before === name) return moves(); // the clock already reads in it
  try {
    env.TZ = name;
    return moves();
  } finally {
    if (before === undefined) delete env.TZ;
    else env.TZ = before;
  }
}

/** Intl's canonical name of the zone (case corrected, Etc/UTC as UTC), or null when Intl does not take it. */
function intlName(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Why a ROLE_TIMEZONE value cannot be used, or undefined when it can. */
export function explainTimeZone(zone: string): string | undefined {
  if (isKnownTimeZone(zone)) return undefined;
  return `"${zone}" is not a time zone name this system knows; use an IANA name such as Asia/Taipei or America/Los_Angeles`;
}

/**
 * The machine's own zone, the one a cron daemon started by the system reads its schedule in:
 * Debian's /etc/timezone, else the target of the /etc/localtime link, else UTC (a container
 * without zone data runs in UTC).
 */
export function systemTimeZone(files: { timezone?: string; localtime?: string } = {}): string {
  const timezoneFile = files.timezone ?? '/etc/timezone';
  const localtimeLink = files.localtime ?? '/etc/localtime';
  try {
    const name = fs.readFileSync(timezoneFile, 'utf8').split('\n', 1)[0]!.trim();
    const known = name ? canonicalTimeZone(name) : undefined;
    if (known) return known;
  } catch {
    /* not Debian-style */
  }
  try {
    const target = fs.readlinkSync(localtimeLink);
    const at = target.indexOf('zoneinfo/');
    if (at >= 0) {
      const name = target.slice(at + 'zoneinfo/'.length).replace(/^(posix|right)\//, '');
      const known = canonicalTimeZone(name);
      if (known) return known;
    }
  } catch {
    /* a copied file, or no zone data */
  }
  return 'UTC';
}

/** The zone "local time" means for this environment (the rule at the top of this file). */
export function resolveUserTimeZone(
  setting: string | null | undefined,
  env: NodeJS.ProcessEnv,
  system: () => string = systemTimeZone,
): UserTimeZone {
  const wanted = setting ? canonicalTimeZone(setting) : undefined;
  if (wanted) return { zone: wanted, source: 'setting' };
  // TZ=:Asia/Taipei is POSIX's "a file under zoneinfo"; a POSIX rule string (CST-8) is not a name.
  const tz = env.TZ?.trim().replace(/^:/, '');
  if (tz && isKnownTimeZone(tz)) return { zone: tz, source: 'TZ' };
  return { zone: system(), source: 'system' };
}

/**
 * Make this process's clock read in ROLE_TIMEZONE. Only the process's own environment is changed,
 * and only when the setting names a known zone: without a setting, TZ and the machine decide as
 * they always did.
 */
export function applyUserTimeZone(setting: string | null | undefined, env: NodeJS.ProcessEnv = process.env): void {
  const wanted = setting ? canonicalTimeZone(setting) : undefined;
  if (!wanted || env.TZ === wanted) return;
  env.TZ = wanted;
}

/** Minutes east of UTC of `zone` at `at` (Asia/Taipei: 480, America/Los_Angeles in winter: -480). */
export function zoneOffsetMinutes(zone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const field = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const asUtc = Date.UTC(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'), field('second'));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}
