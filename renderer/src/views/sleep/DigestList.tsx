import { useState } from 'react';
import type { DigestView } from '../../../../common/ui-contract.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';
import { DigestDetailPanel } from './DigestDetailPanel.js';
import { appliedEntries, reasonLabel } from './digest-labels.js';

/**
 * DIGESTS.md as a readable history, newest first: when, why (a catch-up is said as such), what
 * was done and the counts; each opens into the memories it touched.
 */
export function DigestList({ role, digests }: { role: string; digests: DigestView[] }) {
  const { t, language, formatNumber } = useI18n();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((old) => {
      const next = new Set(old);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const day = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric' });
  const time = new Intl.DateTimeFormat(language, { weekday: 'short', hour: '2-digit', minute: '2-digit', hour12: false });
  return (
    <ol className="digest-list" aria-label={t('sleepHistory.listLabel')}>
      {digests.map((digest, index) => {
        const at = digest.at ? new Date(digest.at) : undefined;
        const key = digest.record ?? `${digest.time}-${index}`;
        const reason = reasonLabel(digest.reason);
        const expanded = open.has(key);
        return (
          <li key={key} className="digest" data-testid="digest" data-reason={digest.reason}>
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
              {reason ? (
                <p
                  className={`badge ${digest.reason === 'catch-up' ? 'badge-accent' : 'badge-muted'} digest-reason`}
                  title={digest.reason === 'catch-up' ? t('digest.reason.catch-up.help') : undefined}
                >
                  {t(reason)}
                </p>
              ) : null}
              {digest.reason === 'catch-up' ? (
                <p className="card-text muted digest-reason-help">{t('digest.reason.catch-up.help')}</p>
              ) : null}
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
              <button
                type="button"
                className="button button-secondary button-small digest-toggle"
                aria-expanded={expanded}
                onClick={() => toggle(key)}
              >
                <Icon name={expanded ? 'up' : 'down'} size={16} />
                {expanded ? t('digest.close') : t('digest.open')}
              </button>
              {expanded ? <DigestDetailPanel role={role} record={digest.record} /> : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
