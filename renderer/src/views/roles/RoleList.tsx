import { useEffect, useMemo, useState } from 'react';
import type { AppState, RoleListItem, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useNotices } from '../../app/notices.js';
import { useRoleAvatars } from '../../app/use-role-avatars.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useI18n } from '../../i18n/i18n.js';
import { ArchiveDialog } from './ArchiveDialog.js';
import { ArchivedRoles } from './ArchivedRoles.js';
import { RoleCard } from './RoleCard.js';

/** ROLE-7: a filter box appears once the list is longer than fits at a glance. */
const FILTER_FROM = 5;

function matches(role: RoleListItem, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [role.id, role.name, role.natureFirstLine].some((text) => text.toLowerCase().includes(q));
}

function moved<T>(items: T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

export function RoleList({ state, onChanged }: { state: AppState; onChanged(): void }) {
  const { t } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  // Shown in the order being saved while the save is on its way (the pushed state follows).
  const [roles, setRoles] = useState(state.roles);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<UiError>();
  const [busy, setBusy] = useState(false);
  const [archiving, setArchiving] = useState<RoleListItem>();
  const [dragFrom, setDragFrom] = useState<number>();
  const [dragOver, setDragOver] = useState<number>();

  useEffect(() => setRoles(state.roles), [state.roles]);
  const avatars = useRoleAvatars(state.roles);

  const filtering = roles.length >= FILTER_FROM && query.trim() !== '';
  const shown = useMemo(() => (filtering ? roles.filter((role) => matches(role, query)) : roles), [filtering, roles, query]);

  const run = async <T,>(work: () => Promise<{ ok: true; value: T } | { ok: false; error: UiError }>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    const result = await work();
    setBusy(false);
    if (!result.ok) {
      setError(result.error);
      onChanged(); // show what is really on disk again
      return undefined;
    }
    onChanged();
    return result.value;
  };

  const reorder = async (from: number, to: number) => {
    if (to < 0 || to >= roles.length || from === to) return;
    const next = moved(roles, from, to);
    setRoles(next);
    const saved = await run(() => bridge.invoke('roles.reorder', { order: next.map((role) => role.id) }));
    if (saved) notify('info', t('roles.reorder.saved'));
  };

  const setActive = async (role: RoleListItem) => {
    const done = await run(() => bridge.invoke('roles.setActive', { id: role.id }));
    if (!done) return;
    notify(
      'success',
      [
        t('roles.setActive.done', { name: role.name || role.id }),
        done.overriddenBy ? t('roles.setActive.overridden', { id: done.overriddenBy }) : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
  };

  const archive = async () => {
    if (!archiving) return;
    const role = archiving;
    const done = await run(() => bridge.invoke('roles.archive', { id: role.id }));
    setArchiving(undefined);
    if (done) notify('success', t('archive.done', { name: role.name || role.id, dir: done.roleArchiveDir }));
  };

  return (
    <div className="page">
      <PageHeader
        title={t('roles.title')}
        subtitle={t('roles.subtitle')}
        actions={
          <a className="button button-primary" href="#/roles/new">
            <Icon name="plus" size={16} />
            {t('roles.new')}
          </a>
        }
      />
      {/* Focused and scrolled to: the button that failed may be far down the list. */}
      {error ? <ErrorNotice error={error} focus /> : null}
      {roles.length === 0 ? (
        <EmptyState icon="roles" title={t('roles.empty.title')} body={t('roles.empty.body')}>
          <a className="button button-primary" href="#/roles/new">
            <Icon name="plus" size={16} />
            {t('roles.new')}
          </a>
        </EmptyState>
      ) : (
        <>
          <div className="list-toolbar">
            {roles.length >= FILTER_FROM ? (
              <label className="search-box">
                <Icon name="search" size={16} />
                <span className="visually-hidden">{t('roles.filter.label')}</span>
                <input
                  type="search"
                  className="search-input"
                  value={query}
                  placeholder={t('roles.filter.placeholder')}
                  onChange={(event) => setQuery(event.target.value)}
                />
              </label>
            ) : null}
            <p className="list-hint">{filtering ? t('roles.reorder.filtering') : t('roles.reorder.hint')}</p>
          </div>
          {shown.length === 0 ? <p className="list-empty">{t('roles.filter.none', { query: query.trim() })}</p> : null}
          <ul className="role-list" aria-label={t('roles.listLabel')}>
            {shown.map((role, index) => (
              <RoleCard
                key={role.id}
                role={role}
                picture={avatars.get(role.id)}
                index={index}
                count={shown.length}
                canReorder={!filtering}
                busy={busy}
                dragOver={dragOver === index && dragFrom !== undefined && dragFrom !== index}
                onMove={(from, to) => void reorder(from, to)}
                onSetActive={(target) => void setActive(target)}
                onArchive={setArchiving}
                onDragStart={setDragFrom}
                onDragOverIndex={setDragOver}
                onDrop={(to) => {
                  if (dragFrom !== undefined) void reorder(dragFrom, to);
                  setDragFrom(undefined);
                  setDragOver(undefined);
                }}
              />
            ))}
          </ul>
        </>
      )}
      <ArchivedRoles roles={state.roles} onChanged={onChanged} />
      {archiving ? (
        <ArchiveDialog role={archiving} busy={busy} onConfirm={() => void archive()} onClose={() => setArchiving(undefined)} />
      ) : null}
    </div>
  );
}
