import { KiokuError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { SETTINGS } from '../../platform/config/settings-schema.js';
import { zoneOffsetMinutes } from '../../platform/config/time-zone.js';

/**
 * The crontab lines of OPS-2 (SLEEP-3), as pure functions: what to schedule, how a line is written,
 * how our lines are found again.
 * Design notes: docs/design-notes.md, "main/core/integrations/setup/cron-entries.ts".
 */
export const CRON_KINDS = ['sleep', 'nap', 'brief'] as const;
export type CronKind = (typeof CRON_KINDS)[number];

const TAG = /\s#\s*kioku:(sleep|nap|brief)\s*$/;
/** Lines the original role scripts installed; reported (and removed on request), never rewritten. */
const LEGACY_TAG = /#\s*jsc-role-sleep\b/;

export const cronTag = (kind: CronKind) => `# kioku:${kind}`;
export const isKiokuCronLine = (line: string) => TAG.test(line);
export const isLegacyCronLine = (line: string) => !TAG.test(line) && LEGACY_TAG.test(line);

/** One line to write: when, which `kioku` arguments, with which environment. */
export interface PlannedCronEntry {
  kind: CronKind;
  schedule: string;
  args: string[];
}

/** A tagged line read back from the crontab. */
export interface KiokuCronEntry {
  kind: CronKind;
  /** The whole line as it is in the crontab. */
  line: string;
  /** The five time fields. */
  schedule: string;
  /** `NAME=value` assignments in front of the command (PATH, ROLE_*). */
  env: Record<string, string>;
  /** The program the line runs (Kioku's launcher, when Kioku wrote it). */
  program: string;
  args: string[];
  /** A line commented out by hand (`# 0 22 …  # kioku:sleep`): it does not run. */
  disabled: boolean;
}

function minutesOf(hhmm: string): number {
  const [h = '0', m = '0'] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

/**
 * Zones and the day the schedule is computed for. cron reads its five fields in *its* zone — the
 * machine's, whatever TZ a line sets for its command — while the window is in the user's. Issue
 * 11 found the old lines (`0 22-23,0-5 * * *`, the window's hours written as they are) firing at
 * 22:00 UTC on a UTC server whose user lives in Taipei: every run found itself outside the window
 * and the nights passed with nothing consolidated, and nothing said so.
 */
export interface CronZones {
  /** The user's zone (ROLE_TIMEZONE, TZ, the machine's: config/time-zone.ts). */
  user: string;
  /** The zone the cron daemon reads the fields in (the machine's). */
  cron: string;
  /** When the offsets are taken (install time); DST moves them by whole hours, which hourly lines do not care about. */
  at: Date;
}

/**
 * The minute past each hour, in cron's zone, at which the user's clock shows `userMinute` past
 * an hour. Equal for zones a whole number of hours apart; Asia/Kolkata (+05:30) against UTC moves
 * :00 to :30.
 */
export function cronMinuteFor(userMinute: number, zones: CronZones): number {
  const apart = zoneOffsetMinutes(zones.user, zones.at) - zoneOffsetMinutes(zones.cron, zones.at);
  return (((userMinute - apart) % 60) + 60) % 60;
}

/**
 * The sleep check: every hour, all day, at the minute the window starts on the user's clock
 * (the role skill's own launcher line was `0 * * * *` too). Hourly lines are right in any pair of zones:
 * `kioku sleep` itself asks whether it is inside the window on the user's clock
 * (睡眠時段每小時檢查一次; outside it, it says it is awake and does nothing). Pinning the window's
 * hours in the fields instead (CRON_TZ) would need a cron that reads CRON_TZ — cronie does,
 * Debian's and busybox's cron do not — and would still break when the user's zone changes.
 * Undefined when start == end (no window; see sleep-window.ts).
 */
export function sleepCheckSchedule(start: string, end: string, zones: CronZones): string | undefined {
  if (minutesOf(start) === minutesOf(end)) return undefined;
  return `${cronMinuteFor(minutesOf(start) % 60, zones)} * * * *`;
}

/**
 * The brief: an hourly check at the minute the window ends on the user's clock; `kioku brief
 * --scheduled` runs the check scripts only in the hour after the window ends, once a day
 * (在睡眠時段結束的整點執行; brief/brief-due.ts).
 */
export function briefSchedule(start: string, end: string, zones: CronZones): string | undefined {
  if (minutesOf(start) === minutesOf(end)) return undefined;
  return `${cronMinuteFor(minutesOf(end) % 60, zones)} * * * *`;
}

export interface PlanInput {
  /** Whether any role the schedule serves has a `<ID>.checks/` folder. */
  hasChecks: boolean;
  zones: CronZones;
}

/**
 * What to schedule for these settings: the hourly sleep check, the nap check every
 * ROLE_NAP_INTERVAL_MINUTES (when naps are on; idle time has no zone), and the hourly brief check
 * — only when a checks folder exists (目錄不存在 … 也不會安裝排程條目 — 對沒設定的人零影響) and
 * briefs are on.
 */
export function planCronEntries(config: KiokuConfig, input: PlanInput): PlannedCronEntry[] {
  const { settings } = config;
  const planned: PlannedCronEntry[] = [];
  const sleep = sleepCheckSchedule(settings.ROLE_SLEEP_START, settings.ROLE_SLEEP_END, input.zones);
  if (sleep) planned.push({ kind: 'sleep', schedule: sleep, args: ['sleep'] });
  if (settings.ROLE_NAP_ENABLED) planned.push({ kind: 'nap', schedule: `*/${settings.ROLE_NAP_INTERVAL_MINUTES} * * * *`, args: ['nap'] });
  const brief = briefSchedule(settings.ROLE_SLEEP_START, settings.ROLE_SLEEP_END, input.zones);
  if (brief && settings.ROLE_BRIEF_ENABLED && input.hasChecks) {
    planned.push({
      kind: 'brief',
      schedule: brief,
      args: settings.ROLE_SLEEP_ALL_ROLES ? ['brief', '--scheduled', '--all'] : ['brief', '--scheduled'],
    });
  }
  return planned;
}

/** Set by every line whatever the user set: where the homes are and which roles are served. */
const ALWAYS_WRITTEN = new Set(['ROLE_HOME', 'ROLE_MEMORY_HOME', 'ROLE_SLEEP_ALL_ROLES', 'ROLE_NAME']);

/**
 * The environment of every line (cron has none of the interactive shell's variables): a minimal
 * PATH (不得把互動 shell 的完整 `PATH` 原樣寫入 — a long line gets the crontab refused), TZ = the
 * user's zone (so the command reads the window on the user's clock, whatever cron's zone is),
 * the resolved homes, and the ROLE_* settings the user set explicitly in this environment.
 * Multi-role (the default) writes ROLE_SLEEP_ALL_ROLES=1 and never ROLE_NAME: a pinned
 * ROLE_NAME once made only the active role ever sleep, silently (the bug SLEEP-3 fixed in the role skill).
 */
export function cronEnvironment(
  config: KiokuConfig,
  pathDirs: readonly string[],
  singleRole: string | undefined,
  userZone: string,
): [string, string][] {
  const env: [string, string][] = [['PATH', [...new Set(pathDirs)].join(':')]];
  env.push(['TZ', userZone]);
  env.push(['ROLE_HOME', config.paths.roleHome], ['ROLE_MEMORY_HOME', config.paths.memoryHome]);
  env.push(['ROLE_SLEEP_ALL_ROLES', config.settings.ROLE_SLEEP_ALL_ROLES ? '1' : '0']);
  if (!config.settings.ROLE_SLEEP_ALL_ROLES && singleRole) env.push(['ROLE_NAME', singleRole]);
  const explicit = Object.keys(SETTINGS)
    .filter((name) => name.startsWith('ROLE_') && !ALWAYS_WRITTEN.has(name))
    .filter((name) => (config.env[name] ?? '').trim() !== '')
    .sort();
  for (const name of explicit) env.push([name, config.env[name]!.trim()]);
  for (const [name, value] of env) {
    if (/[\r\n]/.test(value)) {
      throw new KiokuError('BAD_USAGE', `${name} contains a line break, which a crontab line cannot hold`, {
        hint: `set ${name} to a single-line value and run install-cron again`,
      });
    }
  }
  return env;
}

/** Quote for /bin/sh; bare when only safe characters are used. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_./:@+=,-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** cron turns an unescaped `%` into a line break (crontab(5)); `\%` is a literal percent sign. */
const escapePercent = (text: string) => text.replace(/%/g, '\\%');

/** `<schedule> NAME=value … '<launcher>' --cron <args> # kioku:<kind>` */
export function formatCronLine(entry: PlannedCronEntry, env: readonly [string, string][], launcher: string): string {
  const assignments = env.map(([name, value]) => `${name}=${shellQuote(value)}`);
  const command = [...assignments, shellQuote(launcher), '--cron', ...entry.args.map(shellQuote)].join(' ');
  return `${entry.schedule} ${escapePercent(command)} ${cronTag(entry.kind)}`;
}

/** Split a command the way /bin/sh would for the quoting formatCronLine uses; stops at a comment. */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  while (i < command.length) {
    const ch = command[i]!;
    if (ch === "'") {
      const close = command.indexOf("'", i + 1);
      const end = close === -1 ? command.length : close;
      word = (word ?? '') + command.slice(i + 1, end);
      i = end + 1;
    } else if (ch === '\\' && i + 1 < command.length) {
      word = (word ?? '') + command[i + 1];
      i += 2;
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (ch === '#' && word === undefined) {
      break;
    } else {
      word = (word ?? '') + ch;
      i++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Read one tagged line back; undefined for any other line. */
export function parseKiokuCronLine(line: string): KiokuCronEntry | undefined {
  const tag = TAG.exec(line);
  if (!tag) return undefined;
  const disabled = line.trimStart().startsWith('#');
  const body = line.trim().replace(/^#\s*/, '').replace(TAG, '');
  // Five time fields, or one `@daily`-style word; the command keeps its own spacing.
  const split = /^(@\S+|\S+\s+\S+\s+\S+\s+\S+\s+\S+)\s+([\s\S]*)$/.exec(body);
  const schedule = split ? split[1]!.replace(/\s+/g, ' ') : '';
  // cron itself turns `\%` into `%` before the shell sees the command.
  const words = shellWords((split ? split[2]! : body).replace(/\\%/g, '%'));
  const env: Record<string, string> = {};
  let at = 0;
  for (; at < words.length; at++) {
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(words[at]!);
    if (!assignment) break;
    env[assignment[1]!] = assignment[2]!;
  }
  const [program = '', ...rest] = words.slice(at);
  const args = rest[0] === '--cron' ? rest.slice(1) : rest;
  return { kind: tag[1] as CronKind, line, schedule, env, program, args, disabled };
}

/** Every tagged line of a crontab text. */
export function parseKiokuCronEntries(crontab: string): KiokuCronEntry[] {
  return crontab.split('\n').flatMap((line) => parseKiokuCronLine(line) ?? []);
}

/**
 * The crontab with Kioku's tagged lines replaced by `lines` (none: removed). Every other line is
 * kept byte for byte, in place; the new lines go where the first old one was, else at the end.
 * `dropLegacy` also removes the role skill's `# jsc-role-sleep` lines.
 */
export function replaceKiokuLines(crontab: string, lines: readonly string[], options: { dropLegacy?: boolean } = {}): string {
  const hadFinalNewline = crontab.endsWith('\n');
  const current = crontab === '' ? [] : (hadFinalNewline ? crontab.slice(0, -1) : crontab).split('\n');
  const out: string[] = [];
  let insertAt: number | undefined;
  for (const line of current) {
    if (isKiokuCronLine(line)) {
      insertAt ??= out.length;
      continue;
    }
    if (options.dropLegacy && isLegacyCronLine(line)) continue;
    out.push(line);
  }
  out.splice(insertAt ?? out.length, 0, ...lines);
  // crontab needs a line end after the last line; an empty crontab stays empty.
  return out.length ? `${out.join('\n')}\n` : '';
}
