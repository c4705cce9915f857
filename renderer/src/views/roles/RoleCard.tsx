import type { DragEvent } from 'react';
import type { RoleListItem } from '../../../../common/ui-contract.js';
import { Icon } from '../../components/icons.js';
import { RoleAvatar } from '../../components/RoleAvatar.js';
import { useI18n } from '../../i18n/i18n.js';

export interface RoleCardProps {
  role: RoleListItem;
  /** The role's emoji-sheet picture, when it has a saved one. */
  picture?: string;
  index: number;
  count: number;
  canReorder: boolean;
  busy: boolean;
  dragOver: boolean;
  onMove(from: number, to: number): void;
  onSetActive(role: RoleListItem): void;
  onArchive(role: RoleListItem): void;
  onDragStart(index: number): void;
  onDragOverIndex(index: number | undefined): void;
  onDrop(index: number): void;
}

/** One role in the list (ROLE-7): emoji, name, ID, first line of nature, memory count, active. */
export function RoleCard(props: RoleCardProps) {
  const { role, index, count, canReorder, busy } = props;
  const { t, formatDate, formatNumber } = useI18n();
  const name = role.name || role.id;
  const reasonId = `archive-reason-${role.id}`;
  const onDragOver = (event: DragEvent) => {
    if (!canReorder) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    props.onDragOverIndex(index);
  };
  return (
    <li
      className={['role-card', role.active ? 'role-card-active' : '', props.dragOver ? 'role-card-dragover' : ''].filter(Boolean).join(' ')}
      data-role-id={role.id}
      draggable={canReorder}
      onDragStart={(event) => {
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData('text/plain', role.id);
        props.onDragStart(index);
      }}
      onDragOver={onDragOver}
      onDragLeave={() => props.onDragOverIndex(undefined)}
      onDrop={(event) => {
        event.preventDefault();
        props.onDrop(index);
      }}
    >
      <div className="role-order">
        {canReorder ? (
          <>
            <span className="drag-handle" title={t('roles.dragHandle', { name })} aria-hidden="true">
              <Icon name="grip" size={16} />
            </span>
            <button
              type="button"
              className="icon-button"
              aria-label={t('roles.moveUp', { name })}
              disabled={busy || index === 0}
              onClick={() => props.onMove(index, index - 1)}
            >
              <Icon name="up" size={16} />
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={t('roles.moveDown', { name })}
              disabled={busy || index === count - 1}
              onClick={() => props.onMove(index, index + 1)}
            >
              <Icon name="down" size={16} />
            </button>
          </>
        ) : null}
      </div>
      <RoleAvatar emoji={role.emoji} picture={props.picture} name={name} />
      <div className="role-main">
        <div className="role-title-line">
          <h2 className="role-name">{name}</h2>
          <span className="mono role-id">{role.id}</span>
          {role.active ? (
            <span className="badge badge-accent">
              <Icon name="star" size={12} />
              {t('roles.active')}
            </span>
          ) : null}
          {role.format === 'legacy' ? <span className="badge badge-muted">{t('roles.legacy')}</span> : null}
        </div>
        {role.problem ? (
          <p className="role-problem">
            <Icon name="warning" size={14} /> {t('roles.unreadable')}: {role.problem}
          </p>
        ) : (
          <p className="role-nature">{role.natureFirstLine}</p>
        )}
        <p className="role-meta">
          <span>
            <Icon name="memory" size={14} /> {t('roles.memoryCount', { count: formatNumber(role.memoryCount) })}
          </span>
          {role.updated ? <span>{t('roles.updated', { date: formatDate(role.updated) })}</span> : null}
        </p>
        {role.active ? (
          <p className="role-archive-reason" id={reasonId}>
            {t('roles.archive.activeReason')}
          </p>
        ) : null}
      </div>
      <div className="role-actions">
        {!role.active && !role.problem ? (
          <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => props.onSetActive(role)}>
            {t('roles.setActive')}
          </button>
        ) : null}
        {!role.problem ? (
          <a
            className="button button-secondary button-small"
            href={`#/roles/${encodeURIComponent(role.id)}/edit`}
            aria-label={`${t('roles.edit')} ${name}`}
          >
            <Icon name="edit" size={14} />
            {t('roles.edit')}
          </a>
        ) : null}
        <button
          type="button"
          className="button button-ghost-danger button-small"
          disabled={busy || role.active}
          aria-describedby={role.active ? reasonId : undefined}
          aria-label={`${t('roles.archive')} ${name}`}
          title={role.active ? t('roles.archive.activeReason') : undefined}
          onClick={() => props.onArchive(role)}
        >
          <Icon name="archive" size={14} />
          {t('roles.archive')}
        </button>
      </div>
    </li>
  );
}
