import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SleepStatus } from '../../../../common/hook-protocol.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { ProcessInfo } from '../../engine/schedule/assistant-processes.js';
import { isLegacyCronLine, parseKiokuCronEntries, type CronKind } from '../../integrations/setup/cron-entries.js';
import { allKnownRoles, scheduledRoles } from '../../engine/schedule/schedule-sources.js';

/**
 * OPS-1's schedule rows (schedule present / where it points / roles covered): is anything going to
 * put the roles to sleep — a running daemon with its scheduler, or tagged crontab lines
 * (OPS-2) — does each line still point at a launcher that exists (a versioned path once left the
 * schedule "靜默停擺"), is cron itself running (WSL often has no cron → only catch-up), and which
 * roles are served (a pinned ROLE_NAME once left two roles never consolidated).
 */
export interface CrontabReading {
  /** False when there is no `crontab` command here. */
  available: boolean;
  text: string;
  problem?: string;
}

/** `crontab -l`; "no crontab for …" (exit 1) is an empty crontab, not an error. */
export function readCrontab(): CrontabReading {
  const result = spawnSync('crontab', ['-l'], { encoding: 'utf8', timeout: 10_000 });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    return { available: false, text: '', problem: code === 'ENOENT' ? 'no crontab command on this machine' : result.error.message };
  }
  if (result.status === 0) return { available: true, text: result.stdout };
  if (/no crontab/i.test(result.stderr)) return { available: true, text: '' };
  return { available: true, text: '', problem: `crontab -l exited ${result.status}: ${result.stderr.trim().slice(0, 200)}` };
}

export interface CronEntryStatus {
  kind: CronKind;
  schedule: string;
  program: string;
  programExists: boolean;
  disabled: boolean;
  /** The role a line is pinned to (ROLE_NAME without ROLE_SLEEP_ALL_ROLES=1), else null: every role. */
  pinnedRole: string | null;
}

export interface ScheduleStatus {
  present: boolean;
  by: Array<'daemon' | 'cron'>;
  daemonScheduler: boolean;
  cron: {
    available: boolean;
    problem?: string;
    entries: CronEntryStatus[];
    /** Lines the original role scripts installed (`# jsc-role-sleep`). */
    legacyEntries: number;
    service: 'running' | 'not-running' | 'unknown';
  };
  coveredRoles: string[];
  uncoveredRoles: string[];
  warnings: string[];
}

const CRON_DAEMONS = new Set(['cron', 'crond', 'cronie', 'anacron', 'systemd-cron']);

function cronService(processes: readonly ProcessInfo[] | undefined): ScheduleStatus['cron']['service'] {
  if (!processes) return 'unknown';
  const running = processes.some((p) => {
    const [first = '', second = ''] = p.argv;
    const base = path.basename(first);
    return CRON_DAEMONS.has(base) || (base === 'busybox' && second === 'crond');
  });
  return running ? 'running' : 'not-running';
}

export interface ScheduleStatusInput {
  /** The daemon's sleep status when a daemon answered and runs the scheduler. */
  daemonSleep: SleepStatus | undefined;
  crontab: CrontabReading;
  /** The process list, for "is cron running"; undefined when it cannot be listed. */
  processes: readonly ProcessInfo[] | undefined;
}

export function scheduleStatus(config: KiokuConfig, input: ScheduleStatusInput): ScheduleStatus {
  const warnings: string[] = [];
  const allRoles = allKnownRoles(config);
  const covered = new Set<string>();
  const daemonScheduler = input.daemonSleep !== undefined;
  if (daemonScheduler) for (const role of scheduledRoles(config)) covered.add(role);

  const entries: CronEntryStatus[] = parseKiokuCronEntries(input.crontab.text).map((entry) => {
    const allRolesFlag = entry.env.ROLE_SLEEP_ALL_ROLES;
    const pinnedRole = entry.env.ROLE_NAME && allRolesFlag !== '1' ? entry.env.ROLE_NAME : null;
    return {
      kind: entry.kind,
      schedule: entry.schedule,
      program: entry.program,
      programExists: path.isAbsolute(entry.program) && fs.existsSync(entry.program),
      disabled: entry.disabled,
      pinnedRole,
    };
  });
  const legacyEntries = input.crontab.text.split('\n').filter(isLegacyCronLine).length;
  const liveSleepEntries = entries.filter((e) => e.kind === 'sleep' && !e.disabled && e.programExists);
  for (const entry of liveSleepEntries) {
    if (entry.pinnedRole) covered.add(entry.pinnedRole);
    else for (const role of allRoles) covered.add(role);
  }
  for (const entry of entries) {
    if (entry.disabled) warnings.push(`the crontab line for ${entry.kind} is commented out: it does not run`);
    if (!entry.programExists)
      warnings.push(
        `the crontab line for ${entry.kind} runs ${entry.program || '(nothing)'}, which does not exist: run \`kioku install-cron\` again`,
      );
    if (entry.pinnedRole)
      warnings.push(
        `the crontab line for ${entry.kind} serves ${entry.pinnedRole} only (ROLE_NAME pinned): other roles never sleep; run \`kioku install-cron\` to serve every role`,
      );
  }
  if (legacyEntries > 0)
    warnings.push(
      `${legacyEntries} crontab line(s) from the original role scripts (# jsc-role-sleep): run \`kioku install-cron\` to replace them`,
    );
  const service = entries.length > 0 || legacyEntries > 0 ? cronService(input.processes) : 'unknown';
  if (service === 'not-running' && liveSleepEntries.length > 0) {
    warnings.push(
      'cron is not running, so the crontab lines never fire (common on WSL): start cron, or run `kioku daemon`; SessionStart catch-up still consolidates overdue roles',
    );
  }
  const by: ScheduleStatus['by'] = [];
  if (daemonScheduler) by.push('daemon');
  if (liveSleepEntries.length > 0) by.push('cron');
  const uncoveredRoles = allRoles.filter((role) => !covered.has(role));
  if (by.length > 0 && uncoveredRoles.length > 0) warnings.push(`not served by any schedule: ${uncoveredRoles.join(', ')}`);
  return {
    present: by.length > 0,
    by,
    daemonScheduler,
    cron: {
      available: input.crontab.available,
      ...(input.crontab.problem ? { problem: input.crontab.problem } : {}),
      entries,
      legacyEntries,
      service,
    },
    coveredRoles: [...covered].sort(),
    uncoveredRoles,
    warnings,
  };
}
