import type { RoleListItem, SleepRunView } from '../../../../common/ui-contract.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';

/** What the last "Sleep now" did, role by role, in words and small numbers. */
export function SleepRunResult({ run, roles, onDismiss }: { run: SleepRunView; roles: RoleListItem[]; onDismiss(): void }) {
  const { t, formatNumber } = useI18n();
  const nameOf = (id: string) => {
    const role = roles.find((r) => r.id === id);
    return role ? role.name || role.id : id;
  };
  const ok = run.roles.every((role) => role.ok && !role.busy);
  return (
    <section
      className={`card sleep-result${ok ? '' : ' sleep-result-problem'}`}
      aria-labelledby="sleep-result-title"
      data-testid="sleep-result"
    >
      <div className="sleep-result-head">
        <h2 id="sleep-result-title" className="card-title">
          <Icon name={ok ? 'check' : 'warning'} size={18} /> {ok ? t('sleepNow.doneTitle') : t('sleepNow.problemTitle')}
        </h2>
        <button type="button" className="icon-button" aria-label={t('common.dismiss')} onClick={onDismiss}>
          <Icon name="close" size={16} />
        </button>
      </div>
      {run.awake ? <p className="card-text">{t('sleepNow.awake')}</p> : null}
      {run.roles.length === 0 && !run.awake ? <p className="card-text">{t('sleepNow.nothing')}</p> : null}
      {run.roles.map((role) => (
        <div key={role.id} className="sleep-result-role">
          <p className="card-text">
            {role.busy
              ? t('sleepNow.busy', { role: nameOf(role.id) })
              : role.processed === 0 && role.ok
                ? t('sleepNow.emptyInbox', { role: nameOf(role.id) })
                : t('sleepNow.summary', {
                    role: nameOf(role.id),
                    processed: formatNumber(role.processed),
                    created: formatNumber(role.created),
                    merged: formatNumber(role.merged),
                    discarded: formatNumber(role.discarded),
                    forgotten: formatNumber(role.forgotten),
                  })}
          </p>
          {role.left > 0 ? <p className="card-text muted">{t('sleepNow.left', { n: formatNumber(role.left) })}</p> : null}
          {role.error ? <p className="sleep-result-error">{role.error}</p> : null}
        </div>
      ))}
    </section>
  );
}
