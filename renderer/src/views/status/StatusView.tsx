import { useCallback, useEffect, useState } from 'react';
import type { AppState, DiagnoseView, StatusReportView, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useOnFilesChanged } from '../../app/use-files-changed.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useI18n } from '../../i18n/i18n.js';
import { DiagnoseList } from './DiagnoseList.js';
import { RoleStatusCard } from './RoleStatusCard.js';
import { ScheduleCard } from './ScheduleCard.js';
import './status.css';

function Row({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <div className="facts-row">
      <dt>{label}</dt>
      <dd className={mono ? 'mono' : undefined}>{value}</dd>
    </div>
  );
}

/**
 * The status page (APP-2, OPS-1): sleep and the active role from the app state, then
 * `kioku status` (roles with their memory counts, schedule, dependencies) and the `kioku
 * diagnose` checklist, read fresh from main when the page opens or "check again" is pressed.
 */
export function StatusView({ state }: { state: AppState }) {
  const { t, formatDate, formatNumber } = useI18n();
  const bridge = useBridge();
  const [report, setReport] = useState<StatusReportView>();
  const [diagnose, setDiagnose] = useState<DiagnoseView>();
  const [error, setError] = useState<UiError>();
  const [checking, setChecking] = useState(false);

  const load = useCallback(async () => {
    setChecking(true);
    const [status, checks] = await Promise.all([bridge.invoke('status.get', {}), bridge.invoke('status.diagnose', {})]);
    setChecking(false);
    if (status.ok) setReport(status.value);
    if (checks.ok) setDiagnose(checks.value);
    setError(!status.ok ? status.error : !checks.ok ? checks.error : undefined);
  }, [bridge]);

  useEffect(() => {
    void load();
  }, [load]);
  // A consolidation, a capture or an edit elsewhere changes what the report says (last sleep,
  // counts); the checklist (which looks at processes and crontab) waits for "check again".
  const refreshReport = useCallback(async () => {
    const status = await bridge.invoke('status.get', {});
    if (status.ok) setReport(status.value);
  }, [bridge]);
  useOnFilesChanged((change) => change.roles.length > 0 || change.facts, refreshReport);
  useEffect(() => bridge.subscribe('memories.changed', () => void refreshReport()), [bridge, refreshReport]);

  const active = state.roles.find((role) => role.id === state.activeRole);
  const memories = state.roles.reduce((sum, role) => sum + role.memoryCount, 0);
  const schedule = state.sleep.schedule;
  const nap = report?.nap;
  return (
    <div className="page status-page">
      <PageHeader
        title={t('status.title')}
        subtitle={t('status.subtitle')}
        actions={
          <button type="button" className="button button-secondary" onClick={() => void load()} disabled={checking}>
            {checking ? t('status.check.running') : t('status.check.again')}
          </button>
        }
      />
      {error ? <ErrorNotice error={error} onRetry={() => void load()} /> : null}
      <div className="card-grid">
        <section className="card" aria-labelledby="status-sleep">
          <h2 id="status-sleep" className="card-title">
            {t('status.sleep.title')}
          </h2>
          <p className={`sleep-chip sleep-${state.state} sleep-chip-large`}>
            <span className="sleep-dot" aria-hidden="true" />
            {t(`sleep.${state.state}`)}
          </p>
          {/* The report reads settings.json fresh; the app state may hold the values the host started with. */}
          <p className="card-text">
            {t('status.sleep.window', {
              start: (report?.sleepWindow ?? state.sleep.window).start,
              end: (report?.sleepWindow ?? state.sleep.window).end,
            })}
          </p>
          {nap ? (
            <p className="card-text">
              {nap.enabled
                ? t('status.sleep.nap', {
                    idle: formatNumber(nap.idleMinutes),
                    inbox: formatNumber(nap.minInbox),
                    interval: formatNumber(nap.intervalMinutes),
                  })
                : t('status.sleep.napOff')}
            </p>
          ) : null}
          <p className="card-text muted">
            {state.sleep.source === 'schedule' ? t('status.sleep.fromSchedule') : t('status.sleep.fromWindow')}
          </p>
          {schedule?.role ? <p className="card-text">{t('status.sleep.consolidating', { role: schedule.role })}</p> : null}
          {schedule?.nextCheck ? (
            <p className="card-text muted">{t('status.sleep.nextCheck', { time: formatDate(schedule.nextCheck) })}</p>
          ) : null}
          {report?.sync?.configured ? (
            <p className="card-text" data-testid="status-sync">
              {report.sync.last
                ? t(`status.sync.${report.sync.last.outcome}`, {
                    time: formatDate(report.sync.last.at),
                    machine: report.sync.machine ?? '',
                  })
                : t('status.sync.never', { machine: report.sync.machine ?? '' })}
              {report.sync.conflicts.length ? ` ${t('status.sync.conflicts', { count: formatNumber(report.sync.conflicts.length) })}` : ''}
            </p>
          ) : null}
        </section>
        <section className="card" aria-labelledby="status-active">
          <h2 id="status-active" className="card-title">
            {t('status.active.title')}
          </h2>
          {active ? (
            <div className="status-role">
              <span className="avatar avatar-large" aria-hidden="true">
                {active.emoji || '？'}
              </span>
              <div>
                <p className="status-role-name">{active.name}</p>
                <p className="mono muted">{active.id}</p>
                <p className="card-text muted">{t('roles.memoryCount', { count: formatNumber(active.memoryCount) })}</p>
              </div>
            </div>
          ) : (
            <p className="card-text muted">{t('status.active.none')}</p>
          )}
          {report?.roleResolution.source ? (
            <p className="card-text muted">
              {t(report.roleResolution.source === 'env' ? 'status.active.fromEnv' : 'status.active.fromFile')}
            </p>
          ) : null}
          <p className="card-text">
            {t('status.roles.count', { count: formatNumber(state.roles.length), memories: formatNumber(memories) })}
          </p>
        </section>
      </div>
      {diagnose ? <DiagnoseList diagnose={diagnose} /> : !error ? <p className="loading">{t('common.loading')}</p> : null}
      {report ? (
        <section className="status-roles" aria-labelledby="status-roles-title">
          <h2 id="status-roles-title" className="section-title">
            {t('status.roles.title')}
          </h2>
          {report.roles.length ? (
            report.roles.map((role) => <RoleStatusCard key={role.id} role={role} />)
          ) : (
            <p className="card-text muted">{t('status.roles.none')}</p>
          )}
        </section>
      ) : null}
      {report ? <ScheduleCard report={report} /> : null}
      <section className="card" aria-labelledby="status-daemon">
        <h2 id="status-daemon" className="card-title">
          {t('status.daemon.title')}
        </h2>
        <dl className="facts-list">
          <Row label={t('status.daemon.version')} value={state.daemon.version} />
          <Row label={t('status.daemon.pid')} value={String(state.daemon.pid)} mono />
          <Row label={t('status.daemon.started')} value={formatDate(state.daemon.startedAt)} />
          <Row label={t('status.daemon.spool')} value={formatNumber(state.daemon.spoolPending)} />
          {report?.spool.oldest ? (
            <Row
              label={t('status.spool.oldest')}
              value={t('status.spool.oldestValue', {
                time: formatDate(report.spool.oldest),
                minutes: formatNumber(report.spool.oldestAgeMinutes ?? 0),
              })}
            />
          ) : null}
          <Row label={t('status.daemon.roleHome')} value={state.daemon.roleHome} mono />
          <Row label={t('status.daemon.memoryHome')} value={state.daemon.memoryHome} mono />
          {report ? <Row label={t('status.deps.node')} value={report.dependencies.node.version} mono /> : null}
          {report ? (
            <Row
              label={t('status.deps.planner')}
              value={
                report.dependencies.planner.cli
                  ? `${report.dependencies.planner.cli} (ROLE_CLI=${report.dependencies.planner.setting})`
                  : t('status.deps.localPlanner', { setting: report.dependencies.planner.setting })
              }
            />
          ) : null}
        </dl>
      </section>
    </div>
  );
}
