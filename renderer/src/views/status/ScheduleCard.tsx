import type { StatusReportView } from '../../../../common/ui-contract.js';
import { useI18n } from '../../i18n/i18n.js';

/**
 * Who puts the roles to sleep (OPS-1 排程 / 排程指向 / 排程涵蓋角色): the daemon's scheduler and/or
 * Kioku's crontab lines, when it looks next, how the last run went, and which roles it serves.
 */
export function ScheduleCard({ report }: { report: StatusReportView }) {
  const { t, formatDate, formatNumber } = useI18n();
  const s = report.schedule;
  const sleep = report.daemon.sleep;
  const by = s.by.map((name) => t(name === 'daemon' ? 'status.schedule.daemon' : 'status.schedule.cron')).join(' + ');
  const run = sleep?.lastRun;
  return (
    <section className="card" aria-labelledby="status-schedule">
      <h2 id="status-schedule" className="card-title">
        {t('status.schedule.title')}
      </h2>
      <dl className="facts-list">
        <div className="facts-row">
          <dt>{t('status.schedule.by')}</dt>
          <dd>{s.present ? by : t('status.schedule.none')}</dd>
        </div>
        {sleep?.nextCheck ? (
          <div className="facts-row">
            <dt>{t('status.schedule.nextCheck')}</dt>
            <dd>{formatDate(sleep.nextCheck)}</dd>
          </div>
        ) : null}
        {run ? (
          <div className="facts-row">
            <dt>{t('status.schedule.lastRun')}</dt>
            <dd>
              {t(run.ok ? 'status.schedule.lastRunOk' : 'status.schedule.lastRunFailed', {
                time: formatDate(run.finishedAt),
                processed: formatNumber(run.roles.reduce((sum, role) => sum + role.processed, 0)),
              })}
            </dd>
          </div>
        ) : null}
        <div className="facts-row">
          <dt>{t('status.schedule.covered')}</dt>
          <dd>{s.coveredRoles.length ? s.coveredRoles.join('、') : t('status.schedule.coveredNone')}</dd>
        </div>
        {s.present && s.uncoveredRoles.length ? (
          <div className="facts-row">
            <dt>{t('status.schedule.uncovered')}</dt>
            <dd className="status-bad">{s.uncoveredRoles.join('、')}</dd>
          </div>
        ) : null}
        <div className="facts-row">
          <dt>{t('status.schedule.cronService')}</dt>
          <dd>{t(`status.cron.${s.cron.service}`)}</dd>
        </div>
      </dl>
      {s.cron.entries.length ? (
        <div className="table-wrap">
          <table className="diff-table cron-table">
            <caption className="visually-hidden">{t('status.schedule.cronEntries')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('status.cron.kind')}</th>
                <th scope="col">{t('status.cron.when')}</th>
                <th scope="col">{t('status.cron.program')}</th>
              </tr>
            </thead>
            <tbody>
              {s.cron.entries.map((entry, index) => (
                <tr key={`${entry.kind}-${index}`}>
                  <td>{entry.kind}</td>
                  <td className="mono">{entry.schedule}</td>
                  <td className={entry.programExists ? 'mono' : 'mono status-bad'}>
                    {entry.program}
                    {!entry.programExists ? ` — ${t('status.cron.missing')}` : ''}
                    {entry.disabled ? ` — ${t('status.cron.disabled')}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
