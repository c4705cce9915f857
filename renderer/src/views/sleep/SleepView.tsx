import { useCallback, useEffect, useState } from 'react';
import type { AppState, SleepHistory, SleepRunView, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useOnFilesChanged } from '../../app/use-files-changed.js';
import { useOnMemoriesChanged } from '../../app/use-memories-changed.js';
import { useNotices } from '../../app/notices.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { PageHeader } from '../../components/PageHeader.js';
import { RolePicker, useChosenRole } from '../../components/RolePicker.js';
import { useI18n } from '../../i18n/i18n.js';
import { reasonLabel } from './digest-labels.js';
import { DigestList } from './DigestList.js';
import { SleepNowDialog } from './SleepNowDialog.js';
import { SleepRunResult } from './SleepRunResult.js';
import './sleep.css';

/** DIGESTS.md keeps the last 100 (MEM-10); the view shows them all. */
const DIGEST_COUNT = 100;

/**
 * The current sleep state, from the app state the window is kept up to date with, and the chosen
 * role's last consolidation from its files (state.json), so it changes after "Sleep now", a
 * `kioku sleep` or a catch-up whichever process ran it.
 */
function SleepNowCard({ state, history }: { state: AppState; history: SleepHistory | undefined }) {
  const { t, formatDate } = useI18n();
  const schedule = state.sleep.schedule;
  const lastRun = schedule?.lastRun;
  const latestReason = reasonLabel(history?.digests[0]?.reason);
  return (
    <section className="card sleep-state-card" aria-labelledby="sleep-state-title">
      <h2 id="sleep-state-title" className="card-title">
        {t('sleepHistory.now')}
      </h2>
      <p className={`sleep-chip sleep-${state.state} sleep-chip-large`} data-testid="sleep-history-state">
        <span className="sleep-dot" aria-hidden="true" />
        {t(`sleep.${state.state}`)}
      </p>
      <dl className="sleep-facts">
        <div>
          <dt>{t('sleepHistory.window')}</dt>
          <dd>{t('sleepHistory.windowValue', { start: state.sleep.window.start, end: state.sleep.window.end })}</dd>
        </div>
        {schedule?.role ? (
          <div>
            <dt>{t('sleepHistory.working')}</dt>
            <dd>{schedule.role}</dd>
          </div>
        ) : null}
        {history ? (
          <div>
            <dt>{t('sleepHistory.lastRun')}</dt>
            <dd data-testid="last-sleep">
              {history.lastSleep ? formatDate(history.lastSleep) : t('sleepHistory.never')}
              {history.lastSleep && latestReason ? ` · ${t(latestReason)}` : ''}
              {lastRun && !lastRun.ok ? ` · ${t('sleepHistory.lastRunFailed')}` : ''}
            </dd>
          </div>
        ) : null}
        {schedule?.nextCheck ? (
          <div>
            <dt>{t('sleepHistory.nextCheck')}</dt>
            <dd>{formatDate(schedule.nextCheck)}</dd>
          </div>
        ) : null}
      </dl>
      <p className="card-text muted">{state.sleep.source === 'schedule' ? t('status.sleep.fromSchedule') : t('status.sleep.fromWindow')}</p>
    </section>
  );
}

/**
 * Sleep history (APP-2, MEM-10): each consolidation's time, summary and applied counts, newest
 * first, the current sleep state, and "Sleep now" — which asks first, then consolidates the
 * chosen role on the worker thread (`sleep.run`, what `kioku sleep --force --role` does).
 */
export function SleepView({ state }: { state: AppState }) {
  const { t, formatNumber } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  const [role, setRole] = useChosenRole(state.roles, state.activeRole, false);
  const [history, setHistory] = useState<SleepHistory>();
  const digests = history?.role === role ? history.digests : undefined;
  const [error, setError] = useState<UiError>();
  const [confirming, setConfirming] = useState(false);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<SleepRunView>();
  const roleItem = state.roles.find((r) => r.id === role);
  const name = roleItem ? roleItem.name || roleItem.id : role;

  const load = useCallback(async () => {
    if (!role) return;
    const answer = await bridge.invoke('sleep.history', { role, count: DIGEST_COUNT });
    if (answer.ok) {
      if (answer.value.role !== role) return;
      setHistory(answer.value);
      setError(undefined);
    } else setError(answer.error);
  }, [bridge, role]);

  useEffect(() => {
    setHistory(undefined);
    void load();
  }, [load]);
  useOnMemoriesChanged(role, load);
  // DIGESTS.md or state.json changed (a run elsewhere, a forgetting pass): the history and the last sleep follow.
  useOnFilesChanged((change) => change.roles.includes(role), load);

  const sleepNow = async () => {
    setConfirming(false);
    setRunning(true);
    setResult(undefined);
    setError(undefined);
    const answer = await bridge.invoke('sleep.run', { role, force: true });
    setRunning(false);
    if (!answer.ok) {
      setError(answer.error);
      return;
    }
    setResult(answer.value);
    const mine = answer.value.roles.find((r) => r.id === role);
    if (mine?.ok && !mine.busy) notify('success', t('sleepNow.notice', { name, processed: formatNumber(mine.processed) }));
    await load();
  };

  if (state.roles.length === 0) {
    return (
      <div className="page">
        <PageHeader title={t('sleepHistory.title')} subtitle={t('sleepHistory.subtitle')} />
        <EmptyState icon="roles" title={t('memoryViews.noRoles.title')} body={t('memoryViews.noRoles.body')} />
      </div>
    );
  }

  return (
    <div className="page sleep-page">
      <PageHeader
        title={t('sleepHistory.title')}
        subtitle={t('sleepHistory.subtitle')}
        actions={
          <>
            <RolePicker
              id="sleep-role"
              roles={state.roles}
              value={role}
              onChange={(next) => {
                setRole(next);
                setResult(undefined);
              }}
            />
            <button type="button" className="button button-primary" disabled={running || !role} onClick={() => setConfirming(true)}>
              {running ? <span className="spinner" aria-hidden="true" /> : <Icon name="sleep" size={16} />}
              {running ? t('sleepNow.running') : t('sleepNow.button')}
            </button>
          </>
        }
      />
      <div className="sleep-top">
        <SleepNowCard state={state} history={history?.role === role ? history : undefined} />
        {running ? (
          <section className="card sleep-progress" aria-live="polite" aria-busy="true">
            <h2 className="card-title">
              <span className="spinner" aria-hidden="true" /> {t('sleepNow.progressTitle', { name })}
            </h2>
            <p className="card-text muted">{t('sleepNow.progressBody')}</p>
          </section>
        ) : result ? (
          <SleepRunResult run={result} roles={state.roles} onDismiss={() => setResult(undefined)} />
        ) : null}
      </div>
      {error ? <ErrorNotice error={error} onRetry={() => void load()} /> : null}

      <section className="sleep-history" aria-labelledby="sleep-history-title">
        <h2 id="sleep-history-title" className="section-title">
          {t('sleepHistory.listTitle', { name })}
        </h2>
        {digests === undefined && !error ? <p className="loading">{t('common.loading')}</p> : null}
        {digests && digests.length === 0 ? (
          <EmptyState icon="sleep" title={t('sleepHistory.empty.title')} body={t('sleepHistory.empty.body')} />
        ) : null}
        {digests && digests.length > 0 ? <DigestList role={role} digests={digests} /> : null}
      </section>
      {confirming ? <SleepNowDialog name={name} onConfirm={() => void sleepNow()} onClose={() => setConfirming(false)} /> : null}
    </div>
  );
}
