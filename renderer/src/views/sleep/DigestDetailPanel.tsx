import { useEffect, useState } from 'react';
import type { DigestDetail, DigestMemoryRef, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useI18n } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages-zh-TW.js';
import { memoryHref } from '../timeline/linked-memory.js';

type ListName = 'created' | 'merged' | 'corrected' | 'superseded' | 'forgotten';
const MEMORY_LISTS: ListName[] = ['created', 'merged', 'corrected', 'superseded', 'forgotten'];
const LIST_LABELS: Record<ListName | 'discarded', MessageKey> = {
  created: 'digest.list.created',
  merged: 'digest.list.merged',
  corrected: 'digest.list.corrected',
  superseded: 'digest.list.superseded',
  forgotten: 'digest.list.forgotten',
  discarded: 'digest.list.discarded',
};

/** One memory: a link into the timeline while it exists, else its summary and why there is no link. */
function MemoryLine({ role, memory, note }: { role: string; memory: DigestMemoryRef; note?: string }) {
  const { t } = useI18n();
  return (
    <li className="digest-memory" data-memory-id={memory.id || undefined}>
      {memory.exists ? (
        <a href={memoryHref({ role, id: memory.id })} aria-label={t('digest.openInTimeline', { summary: memory.summary })}>
          {memory.summary}
        </a>
      ) : (
        <span>{memory.summary}</span>
      )}
      {!memory.exists && !note ? <span className="digest-memory-note">{memory.id ? t('digest.gone') : t('digest.noId')}</span> : null}
      {note ? <span className="digest-memory-note">{note}</span> : null}
    </li>
  );
}

/**
 * What one consolidation did, memory by memory (`sleep.digest`): created, merged, corrected and
 * superseded memories link to the timeline; forgotten ones show their summary and where the
 * archived copy waits to be restored; discarded inbox items say why.
 */
export function DigestDetailPanel({ role, record }: { role: string; record: string | undefined }) {
  const { t } = useI18n();
  const bridge = useBridge();
  const [detail, setDetail] = useState<DigestDetail>();
  const [error, setError] = useState<UiError>();

  useEffect(() => {
    if (!record) return;
    let current = true;
    void bridge.invoke('sleep.digest', { role, record }).then((answer) => {
      if (!current) return;
      if (answer.ok) setDetail(answer.value);
      else setError(answer.error);
    });
    return () => {
      current = false;
    };
  }, [bridge, role, record]);

  if (!record) return <p className="card-text muted digest-detail">{t('digest.noRecord')}</p>;
  if (error) return <ErrorNotice error={error} />;
  if (!detail) return <p className="loading digest-detail">{t('digest.loading')}</p>;
  const empty = MEMORY_LISTS.every((name) => detail[name].length === 0) && detail.discarded.length === 0;
  return (
    <div className="digest-detail" data-testid="digest-detail">
      {empty ? <p className="card-text muted">{t('digest.nothing')}</p> : null}
      {MEMORY_LISTS.map((name) =>
        detail[name].length ? (
          <section key={name} className="digest-detail-list" data-list={name}>
            <h3 className="digest-detail-title">{t(LIST_LABELS[name])}</h3>
            <ul>
              {name === 'forgotten'
                ? detail.forgotten.map((memory) => (
                    <MemoryLine
                      key={memory.id}
                      role={role}
                      memory={{ id: memory.id, summary: memory.summary, exists: false }}
                      note={memory.archive ? t('digest.archived', { archive: memory.archive }) : memory.why}
                    />
                  ))
                : name === 'superseded'
                  ? detail.superseded.map((memory) => (
                      <MemoryLine key={memory.id} role={role} memory={memory} note={t('digest.supersededBy', { by: memory.by })} />
                    ))
                  : detail[name].map((memory, index) => <MemoryLine key={memory.id || index} role={role} memory={memory} />)}
            </ul>
          </section>
        ) : null,
      )}
      {detail.discarded.length ? (
        <section className="digest-detail-list" data-list="discarded">
          <h3 className="digest-detail-title">{t(LIST_LABELS.discarded)}</h3>
          <ul>
            {detail.discarded.map((entry) => (
              <li key={entry.source} className="digest-memory">
                <span className="mono">{entry.source}</span>
                <span className="digest-memory-note">{entry.reason}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
