import type { DiagnoseCheck, DiagnoseView } from '../../../../common/ui-contract-notes-types.js';
import { hookChecks } from './hook-checks.js';
import type { StatusReport } from './status-report.js';

/**
 * The OPS-1 diagnose checklist ("when the role does not load") as data: the same
 * rows, in the same order and on the same conditions as `kioku diagnose`
 * (main/cli/commands/status-output.ts), but each row is a stable code with its values instead of
 * an English sentence, so the app can say it in the user's language and the row's "what to do".
 */
const HOURS_OVERDUE = 48;

type Params = DiagnoseCheck['params'];
const ok = (area: DiagnoseCheck['area'], code: DiagnoseCheck['code'], params: Params = {}): DiagnoseCheck => ({
  area,
  code,
  mark: 'ok',
  params,
});
const fail = (area: DiagnoseCheck['area'], code: DiagnoseCheck['code'], params: Params = {}): DiagnoseCheck => ({
  area,
  code,
  mark: 'fail',
  params,
});
const info = (area: DiagnoseCheck['area'], code: DiagnoseCheck['code'], params: Params = {}): DiagnoseCheck => ({
  area,
  code,
  mark: 'info',
  params,
});

/** `ROLE_NAME` or `.active`: which of the two named the role. */
const sourceName = (source: 'env' | 'active' | null) => (source === 'env' ? 'ROLE_NAME' : '.active');

function roleChecks(report: StatusReport): DiagnoseCheck[] {
  const r = report.roleResolution;
  if (r.problem) return [fail('role', 'role.problem', { problem: r.problem })];
  if (!r.id) return [fail('role', 'role.none')];
  if (!r.exists) return [fail('role', 'role.missing', { role: r.id, source: sourceName(r.source) })];
  return [ok('role', 'role.ok', { role: r.id, source: sourceName(r.source), file: r.file ?? '' })];
}

function setupChecks(report: StatusReport): DiagnoseCheck[] {
  const rows: DiagnoseCheck[] = [];
  if (report.enabled.setting === false) rows.push(fail('enabled', 'enabled.off'));
  else if (report.enabled.reason === 'no-role-home') rows.push(fail('enabled', 'enabled.noHome'));
  else rows.push(ok('enabled', report.enabled.setting === true ? 'enabled.forced' : 'enabled.on'));

  rows.push(...hookChecks(report.hooks));

  const session = report.session;
  if (session?.restarted === 'no')
    rows.push(fail('session', 'session.notRestarted', { role: session.role, time: session.roleFileTime ?? '' }));
  else if (session?.restarted === 'yes') rows.push(ok('session', 'session.restarted', { time: session.lastSessionTime ?? '' }));
  else rows.push(info('session', 'session.unknown'));

  const prefixes = (report.scope.prefixes ?? []).join(', ');
  if (!report.scope.inScope) rows.push(fail('scope', 'scope.outside', { cwd: report.scope.cwd, prefixes }));
  else rows.push(report.scope.prefixes ? ok('scope', 'scope.inside', { prefixes }) : ok('scope', 'scope.all'));

  const w = report.sleepWindow;
  rows.push(
    w.now ? fail('window', 'window.asleep', { start: w.start, end: w.end }) : ok('window', 'window.awake', { start: w.start, end: w.end }),
  );
  const zone = report.timeZone;
  if (zone.problems.length === 0)
    rows.push(ok('zone', 'zone.ok', { zone: zone.zone, offset: zone.offset, source: zone.source, cronZone: zone.cronZone }));
  for (const problem of zone.problems) rows.push(fail('zone', problem.code, problem.params));
  return rows;
}

function dependencyChecks(report: StatusReport): DiagnoseCheck[] {
  const rows: DiagnoseCheck[] = [];
  const node = report.dependencies.node;
  rows.push(
    node.ok
      ? ok('node', 'node.ok', { version: node.version })
      : fail('node', 'node.old', { version: node.version, required: node.required }),
  );
  const planner = report.dependencies.planner;
  if (planner.cli) rows.push(ok('planner', 'planner.cli', { cli: planner.cli, command: planner.command ?? '' }));
  else if (planner.setting === 'local' || planner.setting === 'auto')
    rows.push(ok('planner', 'planner.local', { setting: planner.setting }));
  else rows.push(fail('planner', 'planner.missing', { setting: planner.setting }));
  return rows;
}

function scheduleChecks(report: StatusReport): DiagnoseCheck[] {
  const rows: DiagnoseCheck[] = [];
  const s = report.schedule;
  if (!s.present) rows.push(fail('schedule', 'schedule.none'));
  else rows.push(ok('schedule', 'schedule.ok', { by: s.by.join(' + '), cron: s.cron.service }));
  if (s.cron.service === 'not-running' && s.by.includes('cron')) rows.push(fail('cron', 'cron.notRunning'));
  for (const entry of s.cron.entries) {
    if (!entry.programExists) rows.push(fail('target', 'target.missing', { kind: entry.kind, program: entry.program }));
  }
  if (s.cron.entries.length > 0 && s.cron.entries.every((e) => e.programExists)) {
    rows.push(ok('target', 'target.ok', { programs: [...new Set(s.cron.entries.map((e) => e.program))].join(', ') }));
  }
  if (s.cron.legacyEntries > 0) rows.push(fail('target', 'target.legacy', { count: s.cron.legacyEntries }));
  if (s.present) {
    if (s.uncoveredRoles.length) rows.push(fail('coverage', 'coverage.uncovered', { roles: s.uncoveredRoles.join(', ') }));
    else rows.push(ok('coverage', 'coverage.ok', { roles: s.coveredRoles.join(', ') }));
  }
  const sleep = report.daemon.sleep;
  if (sleep?.state === 'error' && sleep.lastRun) {
    const failures = sleep.lastRun.roles.filter((x) => !x.ok).map((x) => `${x.id}: ${x.error ?? 'failed'}`);
    rows.push(
      fail('lastRun', 'lastRun.failed', { reason: sleep.lastRun.reason, time: sleep.lastRun.finishedAt, failures: failures.join('; ') }),
    );
  }
  return rows;
}

/**
 * Issue 13: captured turns waiting in the spool. With no daemon nothing ingests them until the
 * next `kioku sleep`/`nap`; a daemon that runs is ingesting them (information).
 */
function spoolChecks(report: StatusReport): DiagnoseCheck[] {
  const rows: DiagnoseCheck[] = [];
  const { spool } = report;
  const waiting = { count: spool.count, oldest: spool.oldest ?? '', age: spool.oldestAgeMinutes ?? 0 };
  if (spool.count > 0 && !report.daemon.running) rows.push(fail('spool', 'spool.waiting', waiting));
  else if (spool.count > 0) rows.push(info('spool', 'spool.draining', waiting));
  if (spool.failed > 0) rows.push(fail('spool', 'spool.failed', { count: spool.failed }));
  return rows;
}

function memoryChecks(report: StatusReport): DiagnoseCheck[] {
  const rows: DiagnoseCheck[] = [];
  const nowMs = Date.parse(report.now);
  for (const role of report.roles) {
    const slept = role.lastSleep ? Date.parse(role.lastSleep) : Number.NaN;
    const overdue = role.inbox > 0 && (Number.isNaN(slept) || nowMs - slept > HOURS_OVERDUE * 3_600_000);
    const times = { lastSleep: role.lastSleep ?? '', lastForget: role.lastForget ?? '' };
    if (overdue) rows.push(fail('memory', 'memory.overdue', { role: role.id, inbox: role.inbox, ...times }));
    else rows.push(ok('memory', 'memory.ok', { role: role.id, total: role.memory.total, inbox: role.inbox, ...times }));
    for (const warning of role.warnings) rows.push(fail('memory', 'memory.warning', { role: role.id, warning }));
  }
  return rows;
}

export function diagnoseChecks(report: StatusReport): DiagnoseView {
  const checks = [
    ...roleChecks(report),
    ...setupChecks(report),
    ...dependencyChecks(report),
    ...scheduleChecks(report),
    ...spoolChecks(report),
    ...memoryChecks(report),
  ];
  return { checks, failed: checks.filter((check) => check.mark === 'fail').length, now: report.now };
}
