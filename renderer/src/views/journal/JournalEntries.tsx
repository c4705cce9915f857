import type { ReactNode } from 'react';
import type { JournalEntryView } from '../../../../common/ui-contract.js';
import { useI18n } from '../../i18n/i18n.js';

/**
 * The query's words marked in the text where they appear as typed (ignoring case). Main also
 * matches across widths and Simplified/Traditional; those matches are found but not marked.
 */
export function markMatches(text: string, query: string): ReactNode[] {
  const terms = query
    .split(/\s+/)
    .filter(Boolean)
    .map((term) => term.toLowerCase());
  if (!terms.length) return [text];
  const lower = text.toLowerCase();
  const marks: [number, number][] = [];
  for (const term of terms) {
    for (let at = lower.indexOf(term); at !== -1; at = lower.indexOf(term, at + term.length)) marks.push([at, at + term.length]);
  }
  marks.sort((a, b) => a[0] - b[0]);
  const out: ReactNode[] = [];
  let from = 0;
  for (const [start, end] of marks) {
    if (start < from) continue;
    if (start > from) out.push(text.slice(from, start));
    out.push(<mark key={start}>{text.slice(start, end)}</mark>);
    from = end;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

export function JournalEntries({
  entries,
  query,
  activeTag,
  onTag,
}: {
  entries: JournalEntryView[];
  query: string;
  activeTag?: string;
  onTag(tag: string): void;
}) {
  const { t, language } = useI18n();
  const when = new Intl.DateTimeFormat(language, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
  const timeText = (ts: string) => {
    const date = new Date(ts);
    return Number.isNaN(date.getTime()) ? ts || t('journal.noTime') : when.format(date);
  };
  return (
    <ol className="journal-list" aria-label={t('journal.listLabel')}>
      {entries.map((entry) => (
        <li key={entry.line} className="journal-entry" data-testid="journal-entry" data-line={entry.line}>
          <div className="journal-entry-meta">
            <time dateTime={entry.ts}>{timeText(entry.ts)}</time>
            {entry.tags.length ? (
              <span className="journal-entry-tags">
                {entry.tags.map((tag) => (
                  <button
                    key={tag}
                    type="button"
                    className={activeTag === tag ? 'tag-link tag-link-on' : 'tag-link'}
                    aria-label={t('journal.tagFilter', { tag })}
                    onClick={() => onTag(tag)}
                  >
                    #{tag}
                  </button>
                ))}
              </span>
            ) : null}
          </div>
          <p className="journal-entry-text">{markMatches(entry.text, query)}</p>
        </li>
      ))}
    </ol>
  );
}
