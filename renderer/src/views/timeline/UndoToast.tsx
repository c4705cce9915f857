import { useEffect, useState } from 'react';
import type { UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';
import type { ForgottenInfo } from './MemoryActions.js';

/** How long the undo stays offered; after it, "Forgotten" still brings the memory back. */
const OFFER_MS = 12_000;

/** Issue 16: "Forgot …" with Undo, which restores the archive the forget just wrote. */
export function UndoToast({ forgotten, onRestored, onDismiss }: { forgotten: ForgottenInfo; onRestored(): void; onDismiss(): void }) {
  const { t } = useI18n();
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<UiError>();
  useEffect(() => {
    if (error) return undefined;
    const timer = window.setTimeout(onDismiss, OFFER_MS);
    return () => window.clearTimeout(timer);
  }, [forgotten, error, onDismiss]);

  const undo = async () => {
    setBusy(true);
    const result = await bridge.invoke('memories.restore', {
      role: forgotten.role,
      name: forgotten.name,
    });
    setBusy(false);
    if (result.ok) onRestored();
    else setError(result.error);
  };

  return (
    <div className="undo-toast notice notice-info" role="status" data-testid="undo-toast">
      <Icon name="archive" />
      <span className="notice-text">{t('memoryActions.forgotten', { summary: forgotten.summary })}</span>
      {error ? <ErrorNotice error={error} /> : null}
      <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => void undo()}>
        <Icon name="back" size={14} />
        {t('memoryActions.undo')}
      </button>
      <button type="button" className="icon-button" aria-label={t('common.dismiss')} onClick={onDismiss}>
        <Icon name="close" />
      </button>
    </div>
  );
}
