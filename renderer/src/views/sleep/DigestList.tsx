import type { DigestView } from '../../../../common/ui-contract.js';
import { useI18n } from '../../i18n/i18n.js';
import { appliedEntries } from './digest-labels.js';

/** DIGESTS.md as a readable history, newest first: when, what was done, and the counts. */
export function DigestList({ digests }: { digests: DigestView[] }) {
  const { t, language, formatNumber } = useI18n();
  const day = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric' });
  const time = new Intl.DateTimeFormat(language, { weekday: 'short', hour: '2-digit', minute: '2-digit', hour12: false });
  return (
    <ol className="digest-list" aria-label={t('sleepHistory.listLabel')}>
      {digests.map((digest, index) => {
        const at = digest.at ? new Date(digest.at) : undefined;
        return (
          <li key={`${digest.time}-${index}`} className="digest" data-testid="digest">
            <div className="digest-when">
              <span className="digest-dot" aria-hidden="true" />
              {at ? (
                <time dateTime={digest.at ?? undefined}>
                  <span className="digest-day">{day.format(at)}</span>
                  <span className="digest-time">{time.format(at)}</span>
                </time>
              ) : (
                <span className="digest-day">{digest.time || t('timeline.noDate')}</span>
              )}
            </div>
            <div className="digest-card card">
              <p className="digest-summary">{digest.summary || t('sleepHistory.noSummary')}</p>
              {Object.keys(digest.applied).length ? (
                <ul className="digest-counts" aria-label={t('sleepHistory.applied')}>
                  {appliedEntries(digest.applied).map((entry) => (
                    <li key={entry.key} className={entry.n === 0 ? 'digest-count digest-count-zero' : 'digest-count'}>
                      <span className="digest-count-n">{formatNumber(entry.n)}</span>
                      <span className="digest-count-label">{entry.label ? t(entry.label) : entry.key}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
