import { useCallback, useEffect, useState } from 'react';
import type { JournalSearchView, JournalTagCount, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useOnFilesChanged } from '../../app/use-files-changed.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useI18n } from '../../i18n/i18n.js';
import { JournalComposer } from './JournalComposer.js';
import { JournalEntries } from './JournalEntries.js';
import './journal.css';

const STEP = 50;
/** Typing settles before each search: main reads the whole journal per search. */
const SEARCH_DELAY_MS = 250;

/**
 * The journal (DSH-3): write a note with tags, find notes
 * by a Chinese substring or a tag, newest first. Never injected into a session, so it has no limit.
 */
export function JournalView() {
  const { t, formatNumber } = useI18n();
  const bridge = useBridge();
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [tag, setTag] = useState<string>();
  const [limit, setLimit] = useState(STEP);
  const [result, setResult] = useState<JournalSearchView>();
  const [tags, setTags] = useState<JournalTagCount[]>([]);
  const [error, setError] = useState<UiError>();

  useEffect(() => {
    const timer = window.setTimeout(() => setQuery(typed.trim()), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [typed]);

  const load = useCallback(async () => {
    const [found, tagList] = await Promise.all([
      bridge.invoke('journal.search', { ...(query ? { query } : {}), ...(tag ? { tag } : {}), limit }),
      bridge.invoke('journal.tags', {}),
    ]);
    if (found.ok) {
      setResult(found.value);
      setError(undefined);
    } else setError(found.error);
    if (tagList.ok) setTags(tagList.value.tags);
  }, [bridge, query, tag, limit]);

  useEffect(() => {
    void load();
  }, [load]);
  // `kioku journal add` (or anyone) appended: the list and the tags follow.
  useOnFilesChanged((change) => change.journal, load);
  useEffect(() => setLimit(STEP), [query, tag]);

  const filtering = Boolean(query || tag);
  const countText = !result
    ? ''
    : filtering
      ? t(query && tag ? 'journal.count.both' : query ? 'journal.count.query' : 'journal.count.tag', {
          count: formatNumber(result.matched),
          query,
          tag: tag ?? '',
        })
      : t('journal.count.all', { count: formatNumber(result.total) });

  return (
    <div className="page journal-page">
      <PageHeader title={t('nav.journal')} subtitle={t('journal.subtitle')} />
      <JournalComposer onAppended={() => void load()} />
      <section className="card journal-browse" aria-labelledby="journal-browse-title">
        <h2 id="journal-browse-title" className="visually-hidden">
          {t('journal.browse')}
        </h2>
        <div className="journal-search">
          <Icon name="search" className="journal-search-icon" />
          <input
            type="search"
            className="input journal-search-input"
            value={typed}
            aria-label={t('journal.search.label')}
            placeholder={t('journal.search.placeholder')}
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        {tags.length ? (
          <div className="journal-tags" role="group" aria-label={t('journal.tags.label')}>
            {tags.map((item) => (
              <button
                key={item.tag}
                type="button"
                className={tag === item.tag ? 'tag-chip tag-chip-on' : 'tag-chip'}
                aria-pressed={tag === item.tag}
                onClick={() => setTag(tag === item.tag ? undefined : item.tag)}
              >
                <span>#{item.tag}</span>
                <span className="tag-chip-count">{formatNumber(item.count)}</span>
              </button>
            ))}
          </div>
        ) : null}
        <div className="journal-count-row">
          <p className="journal-count" aria-live="polite" data-testid="journal-count">
            {countText}
          </p>
          {filtering ? (
            <button
              type="button"
              className="chip-clear-link"
              onClick={() => {
                setTyped('');
                setQuery('');
                setTag(undefined);
              }}
            >
              {t('journal.clear')}
            </button>
          ) : null}
        </div>
        {result && result.corrupt > 0 ? (
          <p className="callout">{t('journal.corrupt', { count: formatNumber(result.corrupt), lines: result.corruptLines.join(', ') })}</p>
        ) : null}
      </section>
      {error ? <ErrorNotice error={error} onRetry={() => void load()} /> : null}
      {result && result.total === 0 ? <EmptyState icon="journal" title={t('journal.empty.title')} body={t('journal.empty.body')} /> : null}
      {result && result.total > 0 && result.entries.length === 0 ? <p className="journal-none">{t('journal.none')}</p> : null}
      {result && result.entries.length > 0 ? (
        <JournalEntries entries={result.entries} query={query} activeTag={tag} onTag={(next) => setTag(next === tag ? undefined : next)} />
      ) : null}
      {result && result.matched > result.entries.length && limit < 1000 ? (
        <button type="button" className="button button-secondary journal-more" onClick={() => setLimit((n) => Math.min(1000, n + STEP))}>
          {t('journal.more', { count: formatNumber(result.matched - result.entries.length) })}
        </button>
      ) : null}
    </div>
  );
}
