import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AppState, MemoryListItem, MemoryTimeStats, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { PageHeader } from '../../components/PageHeader.js';
import { RolePicker, useChosenRole } from '../../components/RolePicker.js';
import { useI18n } from '../../i18n/i18n.js';
import { useNotices } from '../../app/notices.js';
import { ForgottenList } from './ForgottenList.js';
import type { ForgottenInfo } from './MemoryActions.js';
import { MemoryDetailPanel, type MemoryRef } from './MemoryDetailPanel.js';
import { UndoToast } from './UndoToast.js';
import { parseTimelineUrl } from './timeline-url.js';
import { useTimelineUrl } from './use-timeline-url.js';
import { TimelineChart } from './TimelineChart.js';
import { TimelineFilters, type ChipFilters } from './TimelineFilters.js';
import { memoryKey, TimelineList, type RowSource } from './TimelineList.js';
import { useLinkedMemory } from './linked-memory.js';
import { useMemoryPages, type MemoryFilters } from './use-memory-pages.js';
import './timeline.css';
import './memory-actions.css';

const SEARCH_DELAY_MS = 300;
const SEARCH_LIMIT = 200;
/** A window this short opens the timeline with the chart and filter chips folded away, so the
 * first memory is on screen without scrolling (800×600 and smaller); the user unfolds them. */
const roomyWindow = () => !window.matchMedia('(max-height: 760px)').matches;

function useDebounced(value: string, delayMs: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

function matchesChips(item: MemoryListItem, chips: ChipFilters): boolean {
  if (chips.categories.length && !chips.categories.includes(item.category)) return false;
  if (chips.types.length && !chips.types.includes(item.memory_type)) return false;
  if (chips.clarity.length && (item.clarity === null || !chips.clarity.includes(item.clarity))) return false;
  return true;
}

interface SearchState {
  query: string;
  items: MemoryListItem[];
  error?: UiError;
  seq: number;
}

/**
 * The memory timeline (APP-2, DSH-6): every memory and inbox item over time, newest first; the
 * weekly chart by type; filters; full-text search that works for Chinese (X-SEARCH); a detail
 * panel with links. It follows `memories.changed`, so a consolidation shows up without a reload.
 */
export function TimelineView({ state }: { state: AppState }) {
  const { t, formatNumber } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  // Issue 16: filters and the open memory come from the URL, so a reload keeps them.
  const [fromUrl] = useState(() => parseTimelineUrl(window.location.hash));
  const [role, setRole] = useChosenRole(state.roles, state.activeRole, true);
  useEffect(() => {
    if (fromUrl.role !== undefined) setRole(fromUrl.role);
    // Once, on arrival: later the picker decides.
  }, []);
  const [chips, setChips] = useState<ChipFilters>(() => ({
    categories: fromUrl.categories,
    types: fromUrl.types,
    clarity: fromUrl.clarity,
  }));
  const [query, setQuery] = useState(fromUrl.query);
  const searched = useDebounced(query.trim(), SEARCH_DELAY_MS);
  const [reloadKey, setReloadKey] = useState(0);
  const [selected, setSelected] = useState<MemoryRef | undefined>(fromUrl.open);
  const [forgottenView, setForgottenView] = useState(fromUrl.forgotten);
  const [undo, setUndo] = useState<ForgottenInfo>();
  useTimelineUrl({
    ...(role ? { role } : {}),
    ...chips,
    query: searched,
    forgotten: forgottenView,
    ...(selected ? { open: selected } : {}),
  });
  const onForgotten = useCallback((info: ForgottenInfo) => {
    setSelected(undefined);
    setUndo(info);
    setReloadKey((key) => key + 1);
  }, []);
  const dismissUndo = useCallback(() => setUndo(undefined), []);
  const [stats, setStats] = useState<MemoryTimeStats>();
  const [statsError, setStatsError] = useState<UiError>();
  const [search, setSearch] = useState<SearchState>();
  const now = useMemo(() => new Date(state.now), [state.now]);
  // `#/timeline/<role>/<id>` (a link from the sleep history): that role, that memory's detail.
  useLinkedMemory((ref) => {
    setRole(ref.role);
    setSelected(ref);
  });
  const [chartOpen, setChartOpen] = useState(roomyWindow);
  const [filtersOpen, setFiltersOpen] = useState(roomyWindow);

  useEffect(
    () =>
      bridge.subscribe('memories.changed', ({ roles }) => {
        if (!role || roles.includes(role)) setReloadKey((key) => key + 1);
      }),
    [bridge, role],
  );

  useEffect(() => {
    let current = true;
    void bridge.invoke('memories.stats', role ? { role } : {}).then((result) => {
      if (!current) return;
      if (result.ok) {
        setStats(result.value);
        setStatsError(undefined);
      } else setStatsError(result.error);
    });
    return () => {
      current = false;
    };
  }, [bridge, role, reloadKey]);

  const filters = useMemo<MemoryFilters>(
    () => ({
      ...(role ? { role } : {}),
      ...(chips.categories.length ? { categories: chips.categories } : {}),
      ...(chips.types.length ? { types: chips.types } : {}),
      ...(chips.clarity.length ? { clarity: chips.clarity } : {}),
    }),
    [role, chips],
  );
  const pages = useMemoryPages(filters, reloadKey);

  useEffect(() => {
    if (!searched) {
      setSearch(undefined);
      return;
    }
    let current = true;
    void bridge.invoke('memories.search', { query: searched, limit: SEARCH_LIMIT, ...(role ? { role } : {}) }).then((result) => {
      if (!current) return;
      setSearch((old) => ({
        query: searched,
        items: result.ok ? result.value.items : [],
        ...(result.ok ? {} : { error: result.error }),
        seq: (old?.seq ?? 0) + 1,
      }));
    });
    return () => {
      current = false;
    };
  }, [bridge, searched, role, reloadKey]);

  const searchItems = useMemo(() => search?.items.filter((item) => matchesChips(item, chips)), [search, chips]);
  const source: RowSource = searchItems
    ? { count: searchItems.length, get: (index) => searchItems[index], version: search?.seq ?? 0 }
    : { count: pages.total ?? 0, get: pages.get, ensure: pages.ensure, version: pages.version };

  const filtering = chips.categories.length + chips.types.length + chips.clarity.length > 0;
  const searching = Boolean(searched);
  const waiting = searching ? search?.query !== searched : pages.total === undefined;
  const error = searching ? search?.error : pages.error;
  const selectedRole = selected ? state.roles.find((r) => r.id === selected.role) : undefined;

  return (
    <div className="page timeline-page">
      <PageHeader
        title={t('timeline.title')}
        subtitle={t('timeline.subtitle')}
        actions={
          <RolePicker
            id="timeline-role"
            roles={state.roles}
            value={role}
            onChange={(next) => {
              setRole(next);
              setSelected(undefined);
            }}
            allowAll
          />
        }
      />
      <section className="card timeline-overview" aria-labelledby="timeline-chart-title">
        <div className="timeline-overview-head">
          <h2 id="timeline-chart-title" className="card-title">
            <button
              type="button"
              className="disclosure"
              aria-expanded={chartOpen}
              aria-controls="timeline-chart"
              onClick={() => setChartOpen(!chartOpen)}
            >
              <Icon name="down" size={16} />
              {t('chart.title')}
            </button>
          </h2>
          {stats ? (
            <p className="timeline-totals">
              <span>{t('timeline.total', { n: formatNumber(stats.total) })}</span>
              <span className="total-clear">{t('timeline.totalClarity.clear', { n: formatNumber(stats.clarity.clear) })}</span>
              <span className="total-faded">{t('timeline.totalClarity.faded', { n: formatNumber(stats.clarity.faded) })}</span>
              <span className="total-fuzzy">{t('timeline.totalClarity.fuzzy', { n: formatNumber(stats.clarity.fuzzy) })}</span>
              <span>{t('timeline.totalInbox', { n: formatNumber(stats.categories.inbox) })}</span>
            </p>
          ) : null}
        </div>
        <div id="timeline-chart" hidden={!chartOpen}>
          {statsError ? (
            <ErrorNotice error={statsError} />
          ) : stats ? (
            <TimelineChart stats={stats} />
          ) : chartOpen ? (
            <p className="loading">{t('common.loading')}</p>
          ) : null}
        </div>
      </section>

      <section className="card timeline-controls" aria-label={t('timeline.controls')}>
        <div className="timeline-search-row">
          <label className="search-box timeline-search">
            <Icon name="search" size={16} />
            <span className="visually-hidden">{t('timeline.search.label')}</span>
            <input
              type="search"
              className="search-input"
              value={query}
              placeholder={t('timeline.search.placeholder')}
              onChange={(event) => setQuery(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') setQuery('');
              }}
            />
          </label>
          <button
            type="button"
            className="button button-secondary disclosure"
            aria-expanded={filtersOpen}
            aria-controls="timeline-filters"
            onClick={() => setFiltersOpen(!filtersOpen)}
          >
            <Icon name="down" size={16} />
            {filtering
              ? t('timeline.filter.toggleCount', { n: formatNumber(chips.categories.length + chips.types.length + chips.clarity.length) })
              : t('timeline.filter.toggle')}
          </button>
        </div>
        <div id="timeline-filters" hidden={!filtersOpen}>
          <TimelineFilters value={chips} onChange={setChips} />
        </div>
        <div className="chip-group forgotten-toggle">
          <button
            type="button"
            className={`chip${forgottenView ? ' chip-on' : ''}`}
            aria-pressed={forgottenView}
            onClick={() => {
              setForgottenView(!forgottenView);
              setSelected(undefined);
            }}
          >
            {t('forgotten.filter')}
          </button>
        </div>
      </section>

      {undo ? (
        <UndoToast
          forgotten={undo}
          onDismiss={dismissUndo}
          onRestored={() => {
            notify('success', t('memoryActions.done.restore', { summary: undo.summary }));
            setUndo(undefined);
            setReloadKey((key) => key + 1);
            setSelected({ role: undo.role, id: undo.id });
          }}
        />
      ) : null}
      {forgottenView ? (
        <ForgottenList role={role || state.activeRole || ''} version={reloadKey} onRestored={() => setReloadKey((key) => key + 1)} />
      ) : (
        <>
          <p className="timeline-count" aria-live="polite">
            {waiting
              ? t('common.loading')
              : searching
                ? t('timeline.search.count', { n: formatNumber(source.count), query: searched })
                : t('timeline.count', { n: formatNumber(source.count) })}
            {pages.unreadable > 0 ? (
              <span className="timeline-unreadable">{t('timeline.unreadable', { n: formatNumber(pages.unreadable) })}</span>
            ) : null}
          </p>
          {error ? <ErrorNotice error={error} /> : null}

          <div className={`timeline-body${selected ? ' timeline-body-detail' : ''}`}>
            <div className="timeline-rows">
              {!waiting && source.count === 0 ? (
                searching || filtering ? (
                  <EmptyState
                    icon="search"
                    title={t('timeline.none.title')}
                    body={searching ? t('timeline.none.search', { query: searched }) : t('timeline.none.filters')}
                  />
                ) : (
                  <EmptyState icon="timeline" title={t('timeline.empty.title')} body={t('timeline.empty.body')} />
                )
              ) : (
                <TimelineList
                  source={source}
                  selectedKey={selected ? memoryKey(selected) : undefined}
                  roles={state.roles}
                  showRole={!role && state.roles.length > 1}
                  now={now}
                  label={t('timeline.listLabel')}
                  onOpen={(item) => setSelected({ role: item.role, id: item.id })}
                />
              )}
            </div>
            {selected ? (
              <MemoryDetailPanel
                target={selected}
                role={selectedRole}
                version={reloadKey}
                onForgotten={onForgotten}
                onOpen={setSelected}
                onClose={() => {
                  const { id } = selected;
                  setSelected(undefined);
                  // Back to the row it came from, when that row is on screen.
                  document.querySelector<HTMLButtonElement>(`.memory-row[data-memory-id="${CSS.escape(id)}"]`)?.focus();
                }}
              />
            ) : null}
          </div>
        </>
      )}
    </div>
  );
}
