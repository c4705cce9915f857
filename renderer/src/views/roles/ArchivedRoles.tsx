import { useCallback, useEffect, useState } from 'react';
import type { ArchivedRoleView, RoleListItem, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useNotices } from '../../app/notices.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';
import { PurgeDialog } from './PurgeDialog.js';

/**
 * The archived roles, under the live ones (ROLE-8: an archived role can be moved back later): each can be moved back, or
 * deleted for good after typing its ID. Reloaded whenever the live list changes (an archive, a restore).
 */
export function ArchivedRoles({ roles, onChanged }: { roles: RoleListItem[]; onChanged(): void }) {
  const { t, formatDate } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  const [archived, setArchived] = useState<ArchivedRoleView[]>([]);
  const [error, setError] = useState<UiError>();
  const [busy, setBusy] = useState(false);
  const [purging, setPurging] = useState<ArchivedRoleView>();

  const load = useCallback(async () => {
    const answer = await bridge.invoke('roles.archived', {});
    if (answer.ok) setArchived(answer.value.archived);
    else setError(answer.error);
  }, [bridge]);

  useEffect(() => {
    void load();
  }, [load, roles]);

  const restore = async (entry: ArchivedRoleView) => {
    setBusy(true);
    setError(undefined);
    const answer = await bridge.invoke('roles.restore', { folder: entry.folder });
    setBusy(false);
    if (!answer.ok) return setError(answer.error);
    notify('success', t('archived.restored', { name: answer.value.name || answer.value.id }));
    onChanged();
  };

  const purge = async (entry: ArchivedRoleView, typed: string): Promise<UiError | undefined> => {
    setBusy(true);
    const answer = await bridge.invoke('roles.purge', { folder: entry.folder, confirmId: typed });
    setBusy(false);
    if (!answer.ok) return answer.error;
    setPurging(undefined);
    notify('success', t('archived.purged', { id: entry.id }));
    void load();
    return undefined;
  };

  if (archived.length === 0 && !error) return null;
  return (
    <section className="archived-roles" aria-labelledby="archived-title" data-testid="archived-roles">
      <h2 id="archived-title" className="card-title">
        <Icon name="archive" size={16} /> {t('archived.title', { count: archived.length })}
      </h2>
      <p className="field-help">{t('archived.help')}</p>
      {error ? <ErrorNotice error={error} focus /> : null}
      <ul className="role-list" aria-labelledby="archived-title">
        {archived.map((entry) => {
          const name = entry.name || entry.id;
          const reasonId = `archived-reason-${entry.folder}`;
          return (
            <li key={entry.folder} className="role-card role-card-archived" data-archived-id={entry.id} data-folder={entry.folder}>
              <span className="avatar" aria-hidden="true">
                {entry.emoji || '？'}
              </span>
              <div className="role-main">
                <div className="role-title-line">
                  <h3 className="role-name">{name}</h3>
                  <span className="mono role-id">{entry.id}</span>
                </div>
                <p className="role-meta">
                  <span>{t('archived.at', { date: formatDate(entry.archivedAt) })}</span>
                  <span>{entry.hasMemory ? t('archived.withMemory') : t('archived.noMemory')}</span>
                </p>
                {entry.idInUse ? (
                  <p className="role-archive-reason" id={reasonId}>
                    {t('archived.idInUse', { id: entry.id })}
                  </p>
                ) : null}
              </div>
              <div className="role-actions">
                <button
                  type="button"
                  className="button button-secondary button-small"
                  disabled={busy || entry.idInUse}
                  aria-describedby={entry.idInUse ? reasonId : undefined}
                  aria-label={t('archived.restoreLabel', { name })}
                  onClick={() => void restore(entry)}
                >
                  <Icon name="up" size={14} />
                  {t('archived.restore')}
                </button>
                <button
                  type="button"
                  className="button button-ghost-danger button-small"
                  disabled={busy}
                  aria-label={t('archived.purgeLabel', { name })}
                  onClick={() => setPurging(entry)}
                >
                  <Icon name="close" size={14} />
                  {t('archived.purge')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {purging ? (
        <PurgeDialog entry={purging} busy={busy} onPurge={(typed) => purge(purging, typed)} onClose={() => setPurging(undefined)} />
      ) : null}
    </section>
  );
}
