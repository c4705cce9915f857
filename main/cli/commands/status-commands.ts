import type { Command } from 'commander';
import type { DaemonStatus } from '../../../common/hook-protocol.js';
import { requestStatus } from '../../core/platform/ipc/ipc-client.js';
import { listProcesses, type ProcessInfo } from '../../core/engine/schedule/assistant-processes.js';
import { readCrontab, type CrontabReading } from '../../core/hosts/status/schedule-status.js';
import { collectStatus, type StatusReport } from '../../core/hosts/status/status-report.js';
import type { CliContext } from '../cli-context.js';
import { diagnoseText, statusText } from './status-output.js';

/**
 * `kioku status [--json]` and `kioku diagnose` (CLI.md, OPS-1). Both read the same report; the
 * outside world (the daemon's socket, `crontab -l`, the process list) comes through these
 * functions so tests can stand in for it.
 */
export interface StatusCommandDeps {
  daemonStatus?: (ctx: CliContext) => Promise<DaemonStatus | undefined>;
  readCrontab?: () => CrontabReading;
  listProcesses?: () => ProcessInfo[];
}

/** Long enough for a busy daemon, short enough that `status` never feels stuck when none runs. */
const DAEMON_STATUS_TIMEOUT_MS = 1_500;

async function askDaemon(ctx: CliContext): Promise<DaemonStatus | undefined> {
  const result = await requestStatus(ctx.config.paths, DAEMON_STATUS_TIMEOUT_MS);
  return result.ok ? result.reply.status : undefined;
}

async function buildReport(ctx: CliContext, deps: StatusCommandDeps): Promise<StatusReport> {
  const daemon = await (deps.daemonStatus ?? askDaemon)(ctx);
  let processes: ProcessInfo[] | undefined;
  try {
    processes = (deps.listProcesses ?? listProcesses)();
  } catch {
    processes = undefined; // no /proc and no ps: "is cron running" becomes unknown
  }
  return collectStatus(ctx.config, { daemon, crontab: (deps.readCrontab ?? readCrontab)(), processes, cwd: process.cwd() });
}

function commandFor(parent: Command, name: string): Command {
  return parent.name() === name ? parent : parent.command(name);
}

export function registerStatusCommand(parent: Command, getContext: () => CliContext, deps: StatusCommandDeps = {}): void {
  commandFor(parent, 'status')
    .description('roles, sleep state, schedule, memory counts and last sleep/forget (OPS-1)')
    .option('--json', 'print one JSON object')
    .action(async (options: { json?: boolean }) => {
      const ctx = getContext();
      const report = await buildReport(ctx, deps);
      if (options.json) ctx.printJson(report);
      else ctx.print(statusText(report));
    });
}

export function registerDiagnoseCommand(parent: Command, getContext: () => CliContext, deps: StatusCommandDeps = {}): void {
  commandFor(parent, 'diagnose')
    .description('why a role does not load or sleep: a ✓/✗ checklist with what to do for each ✗ (OPS-1)')
    .action(async () => {
      const ctx = getContext();
      ctx.print(diagnoseText(await buildReport(ctx, deps)));
    });
}
