import { useState } from 'react';
import type { MemoryDetail, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useNotices } from '../../app/notices.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';
import { MarkWrongDialog } from './MarkWrongDialog.js';

export interface ForgottenInfo {
  role: string;
  id: string;
  /** The archive name restore takes (the undo). */
  name: string;
  summary: string;
}

/**
 * Issue 16: the detail panel's actions — edit, pin/unpin, mark wrong, forget (confirmed; the
 * timeline then offers an undo). Each is one UI-contract call to the core function the CLI uses.
 */
export function MemoryActions({
  detail,
  onEdit,
  onChanged,
  onForgotten,
}: {
  detail: MemoryDetail;
  onEdit(): void;
  onChanged(): void;
  onForgotten(info: ForgottenInfo): void;
}) {
  const { t } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  const [asking, setAsking] = useState<'forget' | 'wrong'>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<UiError>();
  const at = { role: detail.role, id: detail.id };

  const run = async <T,>(call: () => Promise<{ ok: true; value: T } | { ok: false; error: UiError }>, then: (value: T) => void) => {
    setBusy(true);
    setError(undefined);
    const result = await call();
    setBusy(false);
    setAsking(undefined);
    if (result.ok) then(result.value);
    else setError(result.error);
  };

  const pin = () =>
    run(
      () => bridge.invoke('memories.pin', { ...at, pinned: !detail.pinned }),
      () => {
        notify('success', t(detail.pinned ? 'memoryActions.done.unpin' : 'memoryActions.done.pin', { summary: detail.summary }));
        onChanged();
      },
    );

  return (
    <div className="memory-actions-wrap">
      <div className="memory-actions" role="group" aria-label={t('memoryActions.label')}>
        <button type="button" className="button button-secondary button-small" onClick={onEdit} disabled={busy}>
          <Icon name="edit" size={15} />
          {t('memoryActions.edit')}
        </button>
        {detail.category === 'inbox' && !detail.pinned ? null : (
          <button
            type="button"
            className="button button-secondary button-small"
            aria-pressed={Boolean(detail.pinned)}
            onClick={() => void pin()}
            disabled={busy}
          >
            <Icon name="star" size={15} />
            {detail.pinned ? t('memoryActions.unpin') : t('memoryActions.pin')}
          </button>
        )}
        {detail.superseded ? null : (
          <button type="button" className="button button-secondary button-small" onClick={() => setAsking('wrong')} disabled={busy}>
            <Icon name="warning" size={15} />
            {t('memoryActions.wrong')}
          </button>
        )}
        <button type="button" className="button button-ghost-danger button-small" onClick={() => setAsking('forget')} disabled={busy}>
          <Icon name="archive" size={15} />
          {t('memoryActions.forget')}
        </button>
      </div>
      {error ? <ErrorNotice error={error} /> : null}
      {asking === 'forget' ? (
        <ConfirmDialog
          id="forget-memory"
          icon="archive"
          tone="danger"
          title={t('memoryActions.forgetConfirm.title')}
          body={t('memoryActions.forgetConfirm.body', {
            summary: detail.summary,
          })}
          confirmLabel={t('memoryActions.forget')}
          busy={busy}
          onConfirm={() =>
            void run(
              () => bridge.invoke('memories.forget', at),
              (done) =>
                onForgotten({
                  role: done.role,
                  id: done.id,
                  name: done.name,
                  summary: detail.summary,
                }),
            )
          }
          onClose={() => setAsking(undefined)}
        />
      ) : null}
      {asking === 'wrong' ? (
        <MarkWrongDialog
          busy={busy}
          onConfirm={(correction) =>
            void run(
              () => bridge.invoke('memories.markWrong', correction ? { ...at, correction } : at),
              () => {
                notify('success', t('memoryActions.done.wrong'));
                onChanged();
              },
            )
          }
          onClose={() => setAsking(undefined)}
        />
      ) : null}
    </div>
  );
}
