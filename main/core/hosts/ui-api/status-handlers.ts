import { execFile } from 'node:child_process';
import type { DaemonStatus } from '../../../../common/hook-protocol.js';
import type { DiagnoseView, StatusReportView } from '../../../../common/ui-contract.js';
import { loadConfig, type KiokuConfig } from '../../platform/config/config.js';
import { listProcesses, type ProcessInfo } from '../../engine/schedule/assistant-processes.js';
import { diagnoseChecks } from '../status/diagnose-checks.js';
import type { CrontabReading } from '../status/schedule-status.js';
import { collectStatus, type StatusReport } from '../status/status-report.js';
import type { AppStateSource } from './app-state.js';

/**
 * The status page (OPS-1): `kioku status --json` and the `kioku diagnose` checklist, built by the
 * same core code. The host is the daemon, so its own status stands for "the daemon"; the outside
 * world (crontab, the process list) comes through StatusProbes so tests can stand in for it.
 */
export interface StatusProbes {
  readCrontab?: () => Promise<CrontabReading>;
  listProcesses?: () => ProcessInfo[];
  /** The folder the scope check looks at; default: the host's current folder. */
  cwd?: () => string;
}

/** `crontab -l` without blocking the daemon's event loop (it also answers the hooks). */
export function readCrontabAsync(): Promise<CrontabReading> {
  return new Promise((resolve) => {
    execFile('crontab', ['-l'], { encoding: 'utf8', timeout: 10_000 }, (error, stdout, stderr) => {
      if (!error) return resolve({ available: true, text: stdout });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return resolve({ available: false, text: '', problem: 'no crontab command on this machine' });
      // "no crontab for <user>" (exit 1) is an empty crontab, not a problem (schedule-status.ts).
      if (/no crontab/i.test(stderr)) return resolve({ available: true, text: '' });
      resolve({ available: true, text: '', problem: `crontab -l failed: ${(stderr || error.message).trim().slice(0, 200)}` });
    });
  });
}

/**
 * Settings as they are now: the page may have just saved settings.json, and the hooks and the
 * CLI read it fresh; the report must not show the values the host started with.
 */
function withFreshSettings(config: KiokuConfig): KiokuConfig {
  const fresh = loadConfig(config.env);
  return { ...config, settings: fresh.settings, problems: fresh.problems };
}

async function buildReport(config: KiokuConfig, source: AppStateSource, probes: StatusProbes): Promise<StatusReport> {
  const own = source.status();
  // collectStatus reads pid, version and sleep of the daemon; this host is it, and it is ready
  // (it answers). The queue counters are not part of the report.
  const daemon: DaemonStatus = { ...own, ready: true, queue: { busy: false, handled: 0, failed: 0 } };
  let processes: ProcessInfo[] | undefined;
  try {
    processes = (probes.listProcesses ?? listProcesses)();
  } catch {
    processes = undefined; // "is cron running" becomes unknown
  }
  const crontab = await (probes.readCrontab ?? readCrontabAsync)();
  return collectStatus(withFreshSettings(config), { daemon, crontab, processes, cwd: (probes.cwd ?? (() => process.cwd()))() });
}

export async function statusReport(config: KiokuConfig, source: AppStateSource, probes: StatusProbes = {}): Promise<StatusReportView> {
  return buildReport(config, source, probes);
}

export async function diagnose(config: KiokuConfig, source: AppStateSource, probes: StatusProbes = {}): Promise<DiagnoseView> {
  return diagnoseChecks(await buildReport(config, source, probes));
}
