import type { KiokuConfig } from '../../platform/config/config.js';
import {
  isKnownTimeZone,
  resolveUserTimeZone,
  shellTimeZone,
  systemTimeZone,
  zoneOffsetMinutes,
  type TimeZoneSource,
} from '../../platform/config/time-zone.js';
import { parseKiokuCronEntries } from '../../integrations/setup/cron-entries.js';

/**
 * Which clock "local time" is read on, for `kioku status` and `kioku diagnose` (issue 11): the
 * user's zone and where it came from, the shell's TZ, ROLE_TIMEZONE, and the zone cron reads its
 * lines in — with a warning for each way they can disagree so that the schedule misses the window.
 */
export interface TimeZoneStatus {
  zone: string;
  source: TimeZoneSource;
  /** UTC offset now, e.g. "+08:00". */
  offset: string;
  /** ROLE_TIMEZONE as set, or null. */
  setting: string | null;
  /** TZ of the environment Kioku was started from, or null. */
  shellTz: string | null;
  /** The machine's zone: the one cron reads its fields in. */
  cronZone: string;
  /** Each disagreement, as a code with its values (the app words it) and an English sentence. */
  problems: TimeZoneProblem[];
  /** The problems' sentences (`kioku status`). */
  warnings: string[];
}

export type TimeZoneProblemCode = 'zone.shellUnknown' | 'zone.shellDiffers' | 'zone.cronLineZone' | 'zone.cronLineHours';

export interface TimeZoneProblem {
  code: TimeZoneProblemCode;
  params: Record<string, string>;
  text: string;
}

function formatOffset(minutes: number): string {
  const sign = minutes >= 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export interface TimeZoneStatusInput {
  crontabText: string;
  /** Default: the machine's zone. */
  cronZone?: string;
  /** Default: the TZ this process started with (for another environment than the process's own: its TZ). */
  shellTz?: string | undefined;
}

export function timeZoneStatus(config: KiokuConfig, input: TimeZoneStatusInput): TimeZoneStatus {
  const now = config.clock.now();
  const setting = config.settings.ROLE_TIMEZONE;
  const startedWith = config.env === process.env ? shellTimeZone() : config.env.TZ;
  const shellTz = ('shellTz' in input ? input.shellTz : startedWith)?.trim() || null;
  const cronZone = input.cronZone ?? systemTimeZone();
  // The shell's TZ decides unless ROLE_TIMEZONE does: resolve against it, not against the TZ the
  // setting has already been applied to.
  const user = resolveUserTimeZone(setting, { TZ: shellTz ?? undefined }, () => cronZone);
  const problems: TimeZoneProblem[] = [];
  const problem = (code: TimeZoneProblemCode, params: Record<string, string>, text: string) => problems.push({ code, params, text });
  const shellZone = shellTz?.replace(/^:/, '');
  if (shellTz && !isKnownTimeZone(shellZone!)) {
    problem(
      'zone.shellUnknown',
      { tz: shellTz, zone: user.zone },
      `TZ=${shellTz} is not a zone name this system knows, so it is ignored and ${user.zone} is used; set TZ or ROLE_TIMEZONE to an IANA name such as Asia/Taipei`,
    );
  } else if (setting && shellZone && shellZone !== setting) {
    problem(
      'zone.shellDiffers',
      { tz: shellZone, setting },
      `your shell's TZ=${shellZone} differs from ROLE_TIMEZONE=${setting}; Kioku uses ${setting} for the sleep window and every local time`,
    );
  }
  const userOffset = zoneOffsetMinutes(user.zone, now);
  for (const entry of parseKiokuCronEntries(input.crontabText)) {
    if (entry.disabled || entry.kind === 'nap') continue;
    const lineZone = entry.env.TZ?.replace(/^:/, '') || cronZone;
    if (isKnownTimeZone(lineZone) && zoneOffsetMinutes(lineZone, now) !== userOffset) {
      problem(
        'zone.cronLineZone',
        { kind: entry.kind, lineZone, zone: user.zone },
        `the crontab's ${entry.kind} line runs its command in ${lineZone}, not in your zone ${user.zone}: it would judge the window on the wrong clock; run \`kioku install-cron\` again`,
      );
      continue;
    }
    const hours = entry.schedule.split(' ')[1];
    if (hours !== undefined && hours !== '*' && zoneOffsetMinutes(cronZone, now) !== userOffset) {
      problem(
        'zone.cronLineHours',
        { kind: entry.kind, hours, cronZone, zone: user.zone },
        `the crontab's ${entry.kind} line fires only at hours ${hours} on cron's clock (${cronZone}), not on yours (${user.zone}), so it misses the window; run \`kioku install-cron\` again (it now installs hourly lines)`,
      );
    }
  }
  return {
    zone: user.zone,
    source: user.source,
    offset: formatOffset(userOffset),
    setting,
    shellTz,
    cronZone,
    problems,
    warnings: problems.map((p) => p.text),
  };
}
