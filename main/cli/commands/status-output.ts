import { CATEGORY_LABELS, MEMORY_TYPE_LABELS, ALL_CATEGORIES, MEMORY_TYPES } from '../../../common/memory.js';
import type { RoleStatus } from '../../core/hosts/status/role-status.js';
import type { StatusReport } from '../../core/hosts/status/status-report.js';
import type { TimeZoneStatus } from '../../core/hosts/status/time-zone-status.js';
import { projectStatusLines } from '../../core/engine/context/project-status.js';
import { hookRows } from './hook-rows.js';
import { syncStatusLines } from './sync-output.js';

/**
 * Human output of `kioku status` and `kioku diagnose` (OPS-1). `diagnose` is the role skill's checklist
 * for "when the role did not load" (角色沒有載入時): each row ✓ or ✗, and every ✗ says what to do;
 * `–` rows are information. Labels are zh-TW first, as the original checklist names them.
 */
type Mark = '✓' | '✗' | '–';
interface Row {
  mark: Mark;
  label: string;
  text: string;
  fix?: string;
}

const HOURS_OVERDUE = 48;

function when(value: string | null): string {
  return value ?? 'never';
}

const ZONE_SOURCES: Record<TimeZoneStatus['source'], string> = { setting: 'ROLE_TIMEZONE', TZ: 'TZ', system: "the machine's zone" };

function timeZoneLine(zone: TimeZoneStatus): string {
  const cron = zone.cronZone === zone.zone ? '' : `; cron's clock: ${zone.cronZone}`;
  return `${zone.zone} (UTC${zone.offset}, from ${ZONE_SOURCES[zone.source]}${cron})`;
}

function spoolLine(report: StatusReport): string {
  const { spool } = report;
  const failed = spool.failed ? `; ${spool.failed} failed (in spool/failed/)` : '';
  if (spool.count === 0) return `empty${failed}`;
  return `${spool.count} event(s) waiting, the oldest since ${spool.oldest ?? '?'} (${spool.oldestAgeMinutes ?? '?'} min)${failed}`;
}

function roleLine(role: RoleStatus): string {
  const categories = ALL_CATEGORIES.map((c) => `${CATEGORY_LABELS[c].zh} ${role.memory.categories[c]}`).join('、');
  const types = MEMORY_TYPES.map((t) => `${MEMORY_TYPE_LABELS[t].zh} ${role.memory.types[t]}`).join('、');
  return [
    `${role.active ? '*' : ' '} ${role.id} ${role.emoji} ${role.name}${role.covered ? '' : '  (not in the schedule)'}`,
    `    記憶 memories: ${role.memory.total} — ${categories}`,
    `    型態 types: ${types}`,
    `    清晰度 clarity: clear ${role.clarity.clear}, faded ${role.clarity.faded}, fuzzy ${role.clarity.fuzzy}`,
    `    上次互動 last interaction: ${when(role.lastInteraction)}; 上次整理 last sleep: ${when(role.lastSleep)}; 上次遺忘 last forget: ${when(role.lastForget)}`,
    ...role.warnings.map((w) => `    warning: ${w}`),
  ].join('\n');
}

export function statusText(report: StatusReport): string {
  const sleep = report.daemon.sleep;
  const lines = [
    `狀態 state: ${report.state}${report.stateSource === 'computed' ? ' (no daemon: from the sleep window)' : ''}${sleep?.role ? ` — consolidating ${sleep.role}` : ''}`,
    `角色 active role: ${report.activeRole ?? '(none)'}${report.roleResolution.source ? ` (from ${report.roleResolution.source === 'env' ? 'ROLE_NAME' : '.active'})` : ''}`,
    `睡眠時段 sleep window: ${report.sleepWindow.start}–${report.sleepWindow.end}${report.sleepWindow.now ? ' (now: asleep)' : ''}`,
    `時區 time zone: ${timeZoneLine(report.timeZone)}`,
    `小睡 nap: ${report.nap.enabled ? `on — idle ≥ ${report.nap.idleMinutes} min and inbox ≥ ${report.nap.minInbox}, checked every ${report.nap.intervalMinutes} min` : 'off'}`,
    `常駐 daemon: ${report.daemon.running ? `running (pid ${report.daemon.pid}${report.daemon.scheduler ? ', with the scheduler' : ', no scheduler'})` : 'not running'}`,
    `排程 schedule: ${report.schedule.present ? report.schedule.by.join(' + ') : 'none'}${sleep?.nextCheck ? `; next check ${sleep.nextCheck}` : ''}`,
  ];
  if (sleep?.lastRun) {
    const run = sleep.lastRun;
    lines.push(
      `上次執行 last run: ${run.reason} at ${run.finishedAt}, ${run.ok ? 'ok' : 'FAILED'} (${run.roles.map((r) => `${r.id} ${r.ok ? `${r.processed} processed` : (r.error ?? 'failed')}`).join('; ')})`,
    );
  }
  lines.push(`待擷取 spool: ${spoolLine(report)}`);
  lines.push(...syncStatusLines(report.sync));
  lines.push(`摘要 CLI planner: ${report.dependencies.planner.cli ?? 'local planner'} (ROLE_CLI=${report.dependencies.planner.setting})`);
  const project = projectStatusLines(report.project);
  if (project.line) lines.push(project.line);
  lines.push('', ...(report.roles.length ? report.roles.map(roleLine) : ['(no roles yet: kioku role new …)']));
  for (const warning of [...report.timeZone.warnings, ...report.schedule.warnings, ...(project.warning ? [project.warning] : [])])
    lines.push(`warning: ${warning}`);
  return lines.join('\n');
}

function checks(report: StatusReport): Row[] {
  const rows: Row[] = [];
  const r = report.roleResolution;
  if (r.problem)
    rows.push({ mark: '✗', label: '角色解析 role', text: r.problem, fix: 'choose a role with `kioku role use <ID>`, or unset ROLE_NAME' });
  else if (!r.id)
    rows.push({
      mark: '✗',
      label: '角色解析 role',
      text: 'neither ROLE_NAME nor .active names a role',
      fix: '`kioku role list`, then `kioku role use <ID>` (or create one: `kioku role new …`)',
    });
  else if (!r.exists)
    rows.push({
      mark: '✗',
      label: '角色解析 role',
      text: `${r.id} (from ${r.source === 'env' ? 'ROLE_NAME' : '.active'}) has no definition file`,
      fix: '`kioku role list` shows the roles there are; `kioku role use <ID>`',
    });
  else rows.push({ mark: '✓', label: '角色解析 role', text: `${r.id} (from ${r.source === 'env' ? 'ROLE_NAME' : '.active'}) — ${r.file}` });

  if (report.enabled.setting === false)
    rows.push({ mark: '✗', label: '總開關 enabled', text: 'ROLE_ENABLED=0 turns Kioku off', fix: 'unset ROLE_ENABLED (or set it to 1)' });
  else if (report.enabled.reason === 'no-role-home')
    rows.push({ mark: '✗', label: '總開關 enabled', text: 'the role home does not exist', fix: 'create a role: `kioku role new …`' });
  else
    rows.push({
      mark: '✓',
      label: '總開關 enabled',
      text: report.enabled.setting === true ? 'ROLE_ENABLED=1 (forced on)' : 'on (ROLE_ENABLED unset)',
    });

  rows.push(...hookRows(report));

  const session = report.session;
  if (session?.restarted === 'no')
    rows.push({
      mark: '✗',
      label: '工作階段 session',
      text: `no session has started since ${session.role} was created or edited (${session.roleFileTime})`,
      fix: 'restart the assistant: SessionStart only fires when a session starts',
    });
  else if (session?.restarted === 'yes')
    rows.push({
      mark: '✓',
      label: '工作階段 session',
      text: `a session started after the role was written (last ${session.lastSessionTime})`,
    });
  else rows.push({ mark: '–', label: '工作階段 session', text: 'no session trace yet; if the role does not load, restart the assistant' });

  if (!report.scope.inScope)
    rows.push({
      mark: '✗',
      label: '範圍 scope',
      text: `${report.scope.cwd} is outside ROLE_SCOPE (${(report.scope.prefixes ?? []).join(', ')})`,
      fix: 'work under one of those folders, or add this one to ROLE_SCOPE',
    });
  else
    rows.push({
      mark: '✓',
      label: '範圍 scope',
      text: report.scope.prefixes ? `inside ROLE_SCOPE (${report.scope.prefixes.join(', ')})` : 'every folder (ROLE_SCOPE unset)',
    });

  const w = report.sleepWindow;
  if (w.now)
    rows.push({
      mark: '✗',
      label: '時段 sleep window',
      text: `now is inside ${w.start}–${w.end}: the role sleeps and is not loaded (by design)`,
      fix: `wait until ${w.end}, or change ROLE_SLEEP_START / ROLE_SLEEP_END`,
    });
  else rows.push({ mark: '✓', label: '時段 sleep window', text: `awake now (sleeps ${w.start}–${w.end})` });
  const zone = report.timeZone;
  if (zone.warnings.length === 0) rows.push({ mark: '✓', label: '時區 time zone', text: timeZoneLine(zone) });
  for (const warning of zone.warnings)
    rows.push({
      mark: '✗',
      label: '時區 time zone',
      text: warning,
      fix: 'set ROLE_TIMEZONE (or TZ) to your zone, then run `kioku install-cron` again if you use cron',
    });

  const node = report.dependencies.node;
  rows.push(
    node.ok
      ? { mark: '✓', label: '依賴 node', text: `node ${node.version}` }
      : {
          mark: '✗',
          label: '依賴 node',
          text: `node ${node.version} is older than ${node.required}`,
          fix: `install Node ${node.required} or newer`,
        },
  );
  const planner = report.dependencies.planner;
  if (planner.cli) rows.push({ mark: '✓', label: '依賴 planner', text: `${planner.cli} — ${planner.command}` });
  else if (planner.setting === 'local' || planner.setting === 'auto')
    rows.push({
      mark: '✓',
      label: '依賴 planner',
      text: `local planner (ROLE_CLI=${planner.setting}${planner.setting === 'auto' ? ': no assistant CLI on PATH' : ''})`,
    });
  else
    rows.push({
      mark: '✗',
      label: '依賴 planner',
      text: `ROLE_CLI=${planner.setting} is not on PATH; the local planner is used instead`,
      fix: `install ${planner.setting} or put it on PATH, or set ROLE_CLI=auto`,
    });

  const s = report.schedule;
  if (!s.present)
    rows.push({
      mark: '✗',
      label: '排程 schedule',
      text: 'no running daemon with a scheduler and no Kioku crontab lines',
      fix: 'run `kioku daemon` (or the tray app), or `kioku install-cron`',
    });
  else
    rows.push({
      mark: '✓',
      label: '排程 schedule',
      text: `by ${s.by.join(' + ')}${s.cron.service === 'running' ? '; cron is running' : ''}`,
    });
  if (s.cron.service === 'not-running' && s.by.includes('cron'))
    rows.push({
      mark: '✗',
      label: '排程 cron',
      text: 'cron is not running: the crontab lines never fire',
      fix: 'start the cron service (on WSL: `sudo service cron start`), or run `kioku daemon`',
    });
  for (const entry of s.cron.entries) {
    if (!entry.programExists)
      rows.push({
        mark: '✗',
        label: '排程指向 target',
        text: `${entry.kind} runs ${entry.program || '(nothing)'}, which does not exist`,
        fix: 'run `kioku install-cron` again',
      });
  }
  if (s.cron.entries.length > 0 && s.cron.entries.every((e) => e.programExists))
    rows.push({
      mark: '✓',
      label: '排程指向 target',
      text: `every crontab line runs an existing launcher (${[...new Set(s.cron.entries.map((e) => e.program))].join(', ')})`,
    });
  if (s.cron.legacyEntries > 0)
    rows.push({
      mark: '✗',
      label: '排程指向 target',
      text: `${s.cron.legacyEntries} line(s) from the original role scripts (# jsc-role-sleep)`,
      fix: 'run `kioku install-cron` to replace them',
    });
  if (s.present) {
    if (s.uncoveredRoles.length)
      rows.push({
        mark: '✗',
        label: '排程涵蓋角色 roles',
        text: `not served: ${s.uncoveredRoles.join(', ')}`,
        fix: 'set ROLE_SLEEP_ALL_ROLES=1 and rerun `kioku install-cron` (or restart the daemon)',
      });
    else rows.push({ mark: '✓', label: '排程涵蓋角色 roles', text: s.coveredRoles.join(', ') || '(no roles yet)' });
  }

  const sleep = report.daemon.sleep;
  if (sleep?.state === 'error' && sleep.lastRun) {
    const failed = sleep.lastRun.roles.filter((x) => !x.ok).map((x) => `${x.id}: ${x.error ?? 'failed'}`);
    rows.push({
      mark: '✗',
      label: '整理 last run',
      text: `${sleep.lastRun.reason} at ${sleep.lastRun.finishedAt} failed — ${failed.join('; ')}`,
      fix: 'the inbox was kept; see `<memory home>/.kioku/logs/`, then `kioku sleep --force` to retry',
    });
  }

  const sync = report.sync;
  if (sync.configured) {
    const last = sync.last;
    if (!sync.approved)
      rows.push({
        mark: '✗',
        label: '同步 sync',
        text: 'set up, but nothing is sent until you agree to the first push',
        fix: 'run `kioku sync init --remote <git URL>` again and answer yes',
      });
    else if (!last) rows.push({ mark: '–', label: '同步 sync', text: 'no sync has run yet', fix: 'run `kioku sync now`' });
    else if (last.outcome === 'ok')
      rows.push({ mark: '✓', label: '同步 sync', text: `last synced ${last.at} with ${sync.remote ?? 'the remote'}` });
    else
      rows.push({
        mark: '✗',
        label: '同步 sync',
        text: `last sync ${last.at}: ${last.outcome} — ${last.message}`,
        fix:
          last.outcome === 'offline'
            ? 'check the network and the remote URL (`git -C <memory home> remote -v`); local changes are kept and sent next time'
            : 'run `kioku sync now` to see the error; nothing local was lost',
      });
    if (sync.conflicts.length)
      rows.push({
        mark: '✗',
        label: '同步衝突 conflicts',
        text: `${sync.conflicts.length} file(s) hold another machine's version: ${sync.conflicts.slice(0, 3).join(', ')}`,
        fix: 'compare each copy with its original, keep what you want, and delete the copy',
      });
  }

  const spool = report.spool;
  if (spool.count > 0 && !report.daemon.running) {
    rows.push({
      mark: '✗',
      label: '待擷取 spool',
      text: `${spool.count} captured event(s) wait in the spool since ${spool.oldest ?? '?'} (${spool.oldestAgeMinutes ?? '?'} min) and no daemon runs to take them into the inbox`,
      fix: 'run `kioku sleep --force` (or `kioku nap`) to capture them now; to capture as you go, run `kioku daemon` (or the tray app), or `kioku install-cron`',
    });
  } else if (spool.count > 0) {
    rows.push({
      mark: '–',
      label: '待擷取 spool',
      text: `${spool.count} event(s) waiting since ${spool.oldest ?? '?'}; the daemon is taking them in`,
    });
  }
  if (spool.failed > 0)
    rows.push({
      mark: '✗',
      label: '待擷取 spool',
      text: `${spool.failed} event(s) could not be captured (spool/failed/)`,
      fix: 'see `<memory home>/.kioku/logs/` for why, then move them back into `<memory home>/.kioku/spool/` to retry',
    });

  const nowMs = Date.parse(report.now);
  for (const role of report.roles) {
    const slept = role.lastSleep ? Date.parse(role.lastSleep) : NaN;
    const overdue = role.inbox > 0 && (Number.isNaN(slept) || nowMs - slept > HOURS_OVERDUE * 3_600_000);
    if (overdue)
      rows.push({
        mark: '✗',
        label: `記憶 ${role.id}`,
        text: `${role.inbox} inbox item(s) waiting; last sleep ${when(role.lastSleep)}`,
        fix: `\`kioku sleep --force --role ${role.id}\`, and check the schedule above`,
      });
    else
      rows.push({
        mark: '✓',
        label: `記憶 ${role.id}`,
        text: `${role.memory.total} memories (inbox ${role.inbox}); last sleep ${when(role.lastSleep)}; last forget ${when(role.lastForget)}`,
      });
    for (const warning of role.warnings)
      rows.push({ mark: '✗', label: `記憶 ${role.id}`, text: warning, fix: 'see `kioku memory stats` and the consolidation logs' });
  }
  return rows;
}

export function diagnoseText(report: StatusReport): string {
  const rows = checks(report);
  const lines = rows.map((row) => `${row.mark} ${row.label}: ${row.text}${row.fix ? `\n    → ${row.fix}` : ''}`);
  const failed = rows.filter((row) => row.mark === '✗').length;
  lines.push('', failed === 0 ? 'All checks passed.' : `${failed} check(s) need attention (✗ above, each with what to do).`);
  return lines.join('\n');
}
