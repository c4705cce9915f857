import { collectSyncStatus, type SyncStatus } from '../../engine/sync/sync-status.js';
import path from 'node:path';
import type { DaemonStatus, SleepStateName, SleepStatus } from '../../../../common/hook-protocol.js';
import { describeError } from '../../../../common/errors.js';
import { chooseCondenserCli } from '../../engine/llm-cli/cli-commands.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { resolveCurrentRole } from '../../store/roles/role-active.js';
import { roleFilePaths, roleFilesExist } from '../../store/roles/role-repository.js';
import type { ProcessInfo } from '../../engine/schedule/assistant-processes.js';
import { allKnownRoles, scheduledRoles } from '../../engine/schedule/schedule-sources.js';
import { isInSleepWindow } from '../../engine/schedule/sleep-window.js';
import { activationGate, scopePrefixes } from '../../store/sessions/activation.js';
import { roleStatus, type RoleStatus } from './role-status.js';
import { timeZoneStatus, type TimeZoneStatus } from './time-zone-status.js';
import { scheduleStatus, type CrontabReading, type ScheduleStatus } from './schedule-status.js';
import { sessionRestartedSince, type SessionRestart } from './session-restart.js';
import { spoolStatus, type SpoolStatus } from './spool-status.js';
import { hooksReport, type HookReport } from './hooks-report.js';
import { projectStatus, type ProjectStatus } from '../../engine/context/project-status.js';

/**
 * `kioku status --json` (CLI.md: `{ roles: [...], activeRole, sleeping, state, daemon: { running } }`,
 * more fields welcome) and the data behind `kioku diagnose` (OPS-1).
 * Read-only. The sleep state is the daemon's when one answers; otherwise it is computed from the
 * window (asleep inside it, awake outside), since nothing else can be running a schedule here.
 */
export const MIN_NODE = '20.19.0';

export interface StatusReport {
  roles: RoleStatus[];
  activeRole: string | null;
  roleResolution: { id: string | null; source: 'env' | 'active' | null; exists: boolean; file: string | null; problem?: string };
  enabled: { on: boolean; setting: boolean | null; reason: string | null };
  /** Per assistant: Kioku's entries in its settings, Codex's trust of them, Claude Code plugins (issue 13). */
  hooks: HookReport[];
  session: SessionRestart | null;
  scope: { prefixes: string[] | null; cwd: string; inScope: boolean };
  sleepWindow: { start: string; end: string; now: boolean };
  /** The clock "local time" is read on (ROLE_TIMEZONE, TZ, the machine's) and cron's zone. */
  timeZone: TimeZoneStatus;
  nap: { enabled: boolean; idleMinutes: number; minInbox: number; intervalMinutes: number };
  sleeping: boolean;
  state: SleepStateName;
  stateSource: 'daemon' | 'computed';
  daemon: {
    running: boolean;
    pid?: number;
    version?: string;
    scheduler: boolean;
    sleep?: SleepStatus;
  };
  schedule: ScheduleStatus;
  /** Hook events waiting to be captured (issue 13): by the daemon, or the next `kioku sleep`/`nap`. */
  spool: SpoolStatus;
  /** The project of the folder status runs in, its MEMORY.md and the conventions waiting for it (issue 12). */
  project: ProjectStatus | null;
  dependencies: {
    node: { version: string; ok: boolean; required: string };
    planner: { setting: string; cli: string | null; command: string | null };
  };
  /** Sync through git (X-SYNC): last sync, conflicts, sleep leases. */
  sync: SyncStatus;
  now: string;
}

export interface StatusInput {
  daemon: DaemonStatus | undefined;
  crontab: CrontabReading;
  processes: readonly ProcessInfo[] | undefined;
  cwd: string;
}

function versionAtLeast(version: string, required: string): boolean {
  const a = version.replace(/^v/, '').split('.').map(Number);
  const b = required.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

function resolution(config: KiokuConfig): StatusReport['roleResolution'] {
  try {
    const current = resolveCurrentRole(config);
    if (!current) return { id: null, source: null, exists: false, file: null };
    const exists = roleFilesExist(config.paths.roleHome, current.id);
    const files = roleFilePaths(config.paths.roleHome, current.id);
    return { id: current.id, source: current.source, exists, file: exists ? files.identity : null };
  } catch (error) {
    return { id: null, source: null, exists: false, file: null, problem: describeError(error) };
  }
}

export function collectStatus(config: KiokuConfig, input: StatusInput): StatusReport {
  const { settings } = config;
  const now = config.clock.now();
  const resolved = resolution(config);
  const gate = activationGate(config, { cwd: input.cwd });
  const on = gate === undefined && (settings.ROLE_ENABLED === true || resolved.exists);
  const reason = gate ?? (on ? null : resolved.id ? 'role-missing' : 'no-role');
  const covered = new Set(scheduledRoles(config));
  const roles = allKnownRoles(config).map((id) => roleStatus(config, id, { active: id === resolved.id, covered: covered.has(id) }));
  const inWindow = isInSleepWindow(settings.ROLE_SLEEP_START, settings.ROLE_SLEEP_END, now);
  const daemonSleep = input.daemon?.sleep;
  const prefixes = scopePrefixes(config) ?? null;
  const planner = chooseCondenserCli(settings.ROLE_CLI, undefined, config.env);
  const schedule = scheduleStatus(config, { daemonSleep, crontab: input.crontab, processes: input.processes });
  // Shown for the resolved role; every role keeps its own counts in `roles`.
  const session = resolved.exists && resolved.id ? sessionRestartedSince(config, resolved.id) : null;
  const hooks = hooksReport(config.env, input.cwd);
  return {
    sync: collectSyncStatus(config),
    roles,
    activeRole: resolved.id,
    roleResolution: resolved,
    enabled: { on, setting: settings.ROLE_ENABLED, reason },
    hooks,
    session,
    scope: { prefixes, cwd: path.resolve(input.cwd), inScope: gate !== 'out-of-scope' },
    sleepWindow: { start: settings.ROLE_SLEEP_START, end: settings.ROLE_SLEEP_END, now: inWindow },
    timeZone: timeZoneStatus(config, { crontabText: input.crontab.text }),
    nap: {
      enabled: settings.ROLE_NAP_ENABLED,
      idleMinutes: settings.ROLE_NAP_IDLE_MINUTES,
      minInbox: settings.ROLE_NAP_MIN_INBOX,
      intervalMinutes: settings.ROLE_NAP_INTERVAL_MINUTES,
    },
    sleeping: inWindow,
    state: daemonSleep?.state ?? (inWindow ? 'asleep' : 'awake'),
    stateSource: daemonSleep ? 'daemon' : 'computed',
    daemon: input.daemon
      ? {
          running: true,
          pid: input.daemon.pid,
          version: input.daemon.version,
          scheduler: daemonSleep !== undefined,
          ...(daemonSleep ? { sleep: daemonSleep } : {}),
        }
      : { running: false, scheduler: false },
    schedule,
    spool: spoolStatus(config),
    project: projectStatus(config, resolved.exists ? resolved.id : null, input.cwd),
    dependencies: {
      node: { version: process.versions.node, ok: versionAtLeast(process.versions.node, MIN_NODE), required: MIN_NODE },
      planner: { setting: settings.ROLE_CLI, cli: planner?.cli ?? null, command: planner?.command ?? null },
    },
    now: formatLocalIso(now),
  };
}
