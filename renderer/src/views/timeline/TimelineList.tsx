import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { MemoryListItem, RoleListItem } from '../../../../common/ui-contract.js';
import { useI18n } from '../../i18n/i18n.js';
import { MemoryRow, ROW_HEIGHT } from './MemoryRow.js';

/** What the list shows: the paged timeline or a search's answer, behind one interface. */
export interface RowSource {
  count: number;
  get(index: number): MemoryListItem | undefined;
  ensure?(start: number, end: number): void;
  /** Changes when rows arrive, so the list renders again. */
  version: number;
}

const keyOf = (item: Pick<MemoryListItem, 'role' | 'id'>) => `${item.role}/${item.id}`;

/**
 * The rows, virtualized against the page's own scroll (useWindowVirtualizer): only the rows near
 * the viewport exist in the DOM, so 10,000+ memories scroll as smoothly as 30. Rows have one fixed
 * height (summary on one line), which keeps positions exact without measuring. Keyboard: ↑/↓,
 * Home/End move between rows; Enter or Space opens one.
 */
export function TimelineList({
  source,
  selectedKey,
  roles,
  showRole,
  now,
  onOpen,
  label,
}: {
  source: RowSource;
  selectedKey: string | undefined;
  roles: RoleListItem[];
  showRole: boolean;
  now: Date;
  onOpen(item: MemoryListItem): void;
  label: string;
}) {
  const { t } = useI18n();
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the list starts on the page; the chart and filters above it may change height.
  useLayoutEffect(() => {
    const element = listRef.current;
    if (!element) return;
    const top = Math.round(element.getBoundingClientRect().top + window.scrollY);
    if (top !== scrollMargin) setScrollMargin(top);
  });

  const virtualizer = useWindowVirtualizer({ count: source.count, estimateSize: () => ROW_HEIGHT, overscan: 12, scrollMargin });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  const { ensure, version } = source;
  useEffect(() => {
    if (source.count > 0) ensure?.(first, last);
  }, [ensure, first, last, version, source.count]);

  const pendingFocus = useRef<number | undefined>(undefined);
  useEffect(() => {
    const index = pendingFocus.current;
    if (index === undefined) return;
    const button = listRef.current?.querySelector<HTMLButtonElement>(`[data-index="${index}"] button`);
    if (button) {
      pendingFocus.current = undefined;
      button.focus({ preventScroll: true });
    }
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (!row) return;
    const index = Number(row.dataset.index);
    const target =
      event.key === 'ArrowDown'
        ? index + 1
        : event.key === 'ArrowUp'
          ? index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? source.count - 1
              : undefined;
    if (target === undefined || target < 0 || target >= source.count) return;
    event.preventDefault();
    pendingFocus.current = target;
    virtualizer.scrollToIndex(target, { align: 'auto' });
    const button = listRef.current?.querySelector<HTMLButtonElement>(`[data-index="${target}"] button`);
    if (button) {
      pendingFocus.current = undefined;
      button.focus({ preventScroll: true });
    }
  };

  const roleById = new Map(roles.map((role) => [role.id, role]));
  return (
    <div
      ref={listRef}
      className="timeline-list"
      role="list"
      aria-label={label}
      onKeyDown={onKeyDown}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {items.map((virtual) => {
        const item = source.get(virtual.index);
        return (
          <div
            key={virtual.key}
            role="listitem"
            aria-setsize={source.count}
            aria-posinset={virtual.index + 1}
            data-index={virtual.index}
            className="timeline-list-item"
            style={{ height: virtual.size, transform: `translateY(${virtual.start - scrollMargin}px)` }}
          >
            {item ? (
              <MemoryRow
                item={item}
                role={showRole ? roleById.get(item.role) : undefined}
                selected={keyOf(item) === selectedKey}
                now={now}
                onOpen={onOpen}
              />
            ) : (
              <div className="memory-row memory-row-placeholder" aria-busy="true">
                <span className="visually-hidden">{t('common.loading')}</span>
                <span className="placeholder-bar" />
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}

export { keyOf as memoryKey };
