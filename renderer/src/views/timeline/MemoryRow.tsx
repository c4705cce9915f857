import { memo } from 'react';
import type { MemoryListItem, RoleListItem } from '../../../../common/ui-contract.js';
import { useI18n } from '../../i18n/i18n.js';
import { ClarityMark } from './ClarityMark.js';
import { categoryLabel, rowDate, typeLabel } from './memory-labels.js';

export const ROW_HEIGHT = 78;

/**
 * One timeline row: when, what kind, how clear, how important, the summary and its tags. Memoized:
 * the list renders on every scroll frame, and a row whose props did not change need not.
 */
export const MemoryRow = memo(function MemoryRow({
  item,
  role,
  selected,
  now,
  onOpen,
}: {
  item: MemoryListItem;
  role?: RoleListItem;
  selected: boolean;
  now: Date;
  onOpen(item: MemoryListItem): void;
}) {
  const { t, language } = useI18n();
  const when = rowDate(item.created, language, now);
  return (
    <button
      type="button"
      className={`memory-row memory-row-${item.clarity ?? 'inbox'}${selected ? ' memory-row-selected' : ''}`}
      aria-current={selected ? 'true' : undefined}
      data-memory-id={item.id}
      onClick={() => onOpen(item)}
    >
      <span className="memory-row-date">
        <span className="memory-row-day">{when?.day ?? t('timeline.noDate')}</span>
        <span className="memory-row-time">{when?.time ?? ''}</span>
      </span>
      <ClarityMark clarity={item.clarity} />
      <span className="memory-row-main">
        <span className="memory-row-summary">
          {item.warm ? (
            <span className="memory-row-warm" role="img" title={t('timeline.warm')} aria-label={t('timeline.warm')}>
              ♥
            </span>
          ) : null}
          {item.summary || t('common.empty')}
        </span>
        <span className="memory-row-meta">
          {role ? (
            <span className="memory-row-role" title={role.id}>
              {role.emoji ? `${role.emoji} ` : ''}
              {role.name || role.id}
            </span>
          ) : null}
          <span className={`badge category-badge category-${item.category}`}>{categoryLabel(item.category, language)}</span>
          <span className={`badge type-badge type-${item.memory_type}`}>
            <span className="type-dot" aria-hidden="true" />
            {typeLabel(item.memory_type, language)}
          </span>
          {item.tags.slice(0, 4).map((tag) => (
            <span key={tag} className="memory-tag">
              #{tag}
            </span>
          ))}
          {item.tags.length > 4 ? <span className="memory-tag">+{item.tags.length - 4}</span> : null}
        </span>
      </span>
      <span
        className="priority-pips"
        role="img"
        title={t('timeline.priority', { n: item.priority })}
        aria-label={t('timeline.priority', { n: item.priority })}
      >
        {[1, 2, 3, 4, 5].map((n) => (
          <span key={n} className={n <= item.priority ? 'pip pip-on' : 'pip'} aria-hidden="true" />
        ))}
      </span>
    </button>
  );
});
