import { useCallback, useEffect, useState } from 'react';
import type { ForgottenList as ForgottenListValue, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useNotices } from '../../app/notices.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';
import { categoryLabel, typeLabel } from './memory-labels.js';
import { withoutRepeats } from './dedupe-sentences.js';
import { MemoryMarkdown } from './MemoryMarkdown.js';

/**
 * Issue 16: the "Forgotten" filter — what archive/forgotten/ holds for one role, newest first,
 * each with "Bring back" (the same restore as `kioku memory restore`). `version` reloads it.
 */
/** The body without what the summary already says (often the same sentence). */
function ForgottenBody({ summary, body }: { summary: string; body: string }) {
  const seen = new Set<string>();
  withoutRepeats(summary, seen);
  const text = withoutRepeats(body, seen);
  return text ? <MemoryMarkdown text={text} className="forgotten-body" /> : null;
}

export function ForgottenList({ role, version, onRestored }: { role: string; version: number; onRestored(id: string): void }) {
  const { t, language, formatDate, formatNumber } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  const [list, setList] = useState<ForgottenListValue>();
  const [error, setError] = useState<UiError>();
  const [busy, setBusy] = useState<string>();
  const [reload, setReload] = useState(0);

  useEffect(() => {
    if (!role) return undefined;
    let current = true;
    void bridge.invoke('memories.forgotten', { role }).then((result) => {
      if (!current) return;
      if (result.ok) {
        setList(result.value);
        setError(undefined);
      } else setError(result.error);
    });
    return () => {
      current = false;
    };
  }, [bridge, role, version, reload]);

  const restore = useCallback(
    async (name: string, summary: string) => {
      setBusy(name);
      const result = await bridge.invoke('memories.restore', { role, name });
      setBusy(undefined);
      if (!result.ok) return setError(result.error);
      notify('success', t('memoryActions.done.restore', { summary }));
      setReload((n) => n + 1);
      onRestored(result.value.id);
    },
    [bridge, role, notify, t, onRestored],
  );

  if (!role) return <EmptyState icon="archive" title={t('forgotten.title')} body={t('forgotten.chooseRole')} />;
  return (
    <section className="card forgotten-list" aria-labelledby="forgotten-title" data-testid="forgotten-list">
      <h2 id="forgotten-title" className="card-title">
        {t('forgotten.title')}
      </h2>
      {error ? <ErrorNotice error={error} /> : null}
      {!list ? <p className="loading">{t('common.loading')}</p> : null}
      {list && list.items.length === 0 ? <p className="muted">{t('forgotten.empty')}</p> : null}
      {list && list.items.length > 0 ? (
        <>
          <p className="timeline-count">{t('forgotten.count', { n: formatNumber(list.total) })}</p>
          <ul className="forgotten-items">
            {list.items.map((item) => (
              <li key={item.name} className="forgotten-item" data-archive={item.name}>
                <div className="forgotten-item-head">
                  <span className={`badge category-badge category-${item.category}`}>{categoryLabel(item.category, language)}</span>
                  <span className={`badge type-badge type-${item.memory_type}`}>
                    <span className="type-dot" aria-hidden="true" />
                    {typeLabel(item.memory_type, language)}
                  </span>
                  <span className="muted forgotten-at">{t('forgotten.at', { date: formatDate(item.forgottenAt) })}</span>
                </div>
                <h3 className="forgotten-summary">{item.summary || t('common.empty')}</h3>
                <ForgottenBody summary={item.summary} body={item.body} />
                <button
                  type="button"
                  className="button button-secondary button-small"
                  disabled={busy === item.name}
                  onClick={() => void restore(item.name, item.summary)}
                >
                  <Icon name="back" size={14} />
                  {t('forgotten.restore')}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
