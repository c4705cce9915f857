import type { DiagnoseArea, DiagnoseCheck, DiagnoseCode } from '../../../../common/ui-contract.js';
import type { Translate } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages-zh-TW.js';

/**
 * The words of each diagnose row (OPS-1; main sends codes and values, main/core/hosts/status/
 * diagnose-checks.ts): the row's label, what was found and, for a ✗, what to do.
 */
export const AREA_LABELS: Record<DiagnoseArea, MessageKey> = {
  role: 'diagnose.area.role',
  enabled: 'diagnose.area.enabled',
  hooks: 'diagnose.area.hooks',
  session: 'diagnose.area.session',
  scope: 'diagnose.area.scope',
  window: 'diagnose.area.window',
  zone: 'diagnose.area.zone',
  node: 'diagnose.area.node',
  planner: 'diagnose.area.planner',
  schedule: 'diagnose.area.schedule',
  cron: 'diagnose.area.cron',
  target: 'diagnose.area.target',
  coverage: 'diagnose.area.coverage',
  lastRun: 'diagnose.area.lastRun',
  spool: 'diagnose.area.spool',
  memory: 'diagnose.area.memory',
};

export const CHECK_TEXT: Record<DiagnoseCode, { text: MessageKey; fix?: MessageKey }> = {
  'role.ok': { text: 'diagnose.role.ok' },
  'role.problem': { text: 'diagnose.role.problem', fix: 'diagnose.role.problem.fix' },
  'role.none': { text: 'diagnose.role.none', fix: 'diagnose.role.none.fix' },
  'role.missing': { text: 'diagnose.role.missing', fix: 'diagnose.role.missing.fix' },
  'enabled.off': { text: 'diagnose.enabled.off', fix: 'diagnose.enabled.off.fix' },
  'enabled.noHome': { text: 'diagnose.enabled.noHome', fix: 'diagnose.enabled.noHome.fix' },
  'enabled.forced': { text: 'diagnose.enabled.forced' },
  'enabled.on': { text: 'diagnose.enabled.on' },
  'hooks.none': { text: 'diagnose.hooks.none', fix: 'diagnose.hooks.none.fix' },
  'hooks.ok': { text: 'diagnose.hooks.ok' },
  'hooks.incomplete': { text: 'diagnose.hooks.incomplete', fix: 'diagnose.hooks.incomplete.fix' },
  'hooks.unreadable': { text: 'diagnose.hooks.unreadable', fix: 'diagnose.hooks.unreadable.fix' },
  'hooks.codexTrusted': { text: 'diagnose.hooks.codexTrusted' },
  'hooks.codexUntrusted': { text: 'diagnose.hooks.codexUntrusted', fix: 'diagnose.hooks.codexTrust.fix' },
  'hooks.codexModified': { text: 'diagnose.hooks.codexModified', fix: 'diagnose.hooks.codexTrust.fix' },
  'hooks.codexDisabled': { text: 'diagnose.hooks.codexDisabled', fix: 'diagnose.hooks.codexDisabled.fix' },
  'hooks.codexTrustUnknown': { text: 'diagnose.hooks.codexTrustUnknown', fix: 'diagnose.hooks.unreadable.fix' },
  'hooks.plugin': { text: 'diagnose.hooks.plugin' },
  'hooks.pluginIncomplete': { text: 'diagnose.hooks.pluginIncomplete', fix: 'diagnose.hooks.pluginIncomplete.fix' },
  'hooks.pluginDisabled': { text: 'diagnose.hooks.pluginDisabled', fix: 'diagnose.hooks.pluginDisabled.fix' },
  'hooks.twice': { text: 'diagnose.hooks.twice', fix: 'diagnose.hooks.twice.fix' },
  'hooks.pluginDir': { text: 'diagnose.hooks.pluginDir' },
  'session.restarted': { text: 'diagnose.session.restarted' },
  'session.notRestarted': { text: 'diagnose.session.notRestarted', fix: 'diagnose.session.notRestarted.fix' },
  'session.unknown': { text: 'diagnose.session.unknown' },
  'scope.outside': { text: 'diagnose.scope.outside', fix: 'diagnose.scope.outside.fix' },
  'scope.inside': { text: 'diagnose.scope.inside' },
  'scope.all': { text: 'diagnose.scope.all' },
  'window.asleep': { text: 'diagnose.window.asleep', fix: 'diagnose.window.asleep.fix' },
  'window.awake': { text: 'diagnose.window.awake' },
  'zone.ok': { text: 'diagnose.zone.ok' },
  'zone.shellUnknown': { text: 'diagnose.zone.shellUnknown', fix: 'diagnose.zone.fix' },
  'zone.shellDiffers': { text: 'diagnose.zone.shellDiffers', fix: 'diagnose.zone.fix' },
  'zone.cronLineZone': { text: 'diagnose.zone.cronLineZone', fix: 'diagnose.zone.cron.fix' },
  'zone.cronLineHours': { text: 'diagnose.zone.cronLineHours', fix: 'diagnose.zone.cron.fix' },
  'node.ok': { text: 'diagnose.node.ok' },
  'node.old': { text: 'diagnose.node.old', fix: 'diagnose.node.old.fix' },
  'planner.cli': { text: 'diagnose.planner.cli' },
  'planner.local': { text: 'diagnose.planner.local' },
  'planner.missing': { text: 'diagnose.planner.missing', fix: 'diagnose.planner.missing.fix' },
  'schedule.none': { text: 'diagnose.schedule.none', fix: 'diagnose.schedule.none.fix' },
  'schedule.ok': { text: 'diagnose.schedule.ok' },
  'cron.notRunning': { text: 'diagnose.cron.notRunning', fix: 'diagnose.cron.notRunning.fix' },
  'target.missing': { text: 'diagnose.target.missing', fix: 'diagnose.target.missing.fix' },
  'target.ok': { text: 'diagnose.target.ok' },
  'target.legacy': { text: 'diagnose.target.legacy', fix: 'diagnose.target.legacy.fix' },
  'coverage.uncovered': { text: 'diagnose.coverage.uncovered', fix: 'diagnose.coverage.uncovered.fix' },
  'coverage.ok': { text: 'diagnose.coverage.ok' },
  'lastRun.failed': { text: 'diagnose.lastRun.failed', fix: 'diagnose.lastRun.failed.fix' },
  'spool.waiting': { text: 'diagnose.spool.waiting', fix: 'diagnose.spool.waiting.fix' },
  'spool.draining': { text: 'diagnose.spool.draining' },
  'spool.failed': { text: 'diagnose.spool.failed', fix: 'diagnose.spool.failed.fix' },
  'memory.overdue': { text: 'diagnose.memory.overdue', fix: 'diagnose.memory.overdue.fix' },
  'memory.ok': { text: 'diagnose.memory.ok' },
  'memory.warning': { text: 'diagnose.memory.warning', fix: 'diagnose.memory.warning.fix' },
};

/** Params whose values are times (ISO) or may be empty ("never"), and the schedulers' names. */
const TIME_PARAMS = new Set(['time', 'lastSleep', 'lastForget', 'oldest']);

/** The emotional-zero warning of role-status.ts, said in the UI's language (its text is English). */
export function isEmotionalZeroWarning(warning: string): boolean {
  return warning.startsWith('no emotional memories');
}

export function checkParams(check: DiagnoseCheck, t: Translate, formatDate: (value: string) => string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(check.params)) {
    if (TIME_PARAMS.has(name)) out[name] = value ? formatDate(String(value)) : t('status.never');
    else if (name === 'by')
      out[name] = String(value)
        .split(' + ')
        .map((by) => t(by === 'daemon' ? 'status.schedule.daemon' : 'status.schedule.cron'))
        .join(' + ');
    else if (name === 'roles') out[name] = value === '' ? t('status.roles.none') : value;
    else if (name === 'warning' && isEmotionalZeroWarning(String(value))) out[name] = t('status.role.emotionalZero');
    else out[name] = value;
  }
  return out;
}
