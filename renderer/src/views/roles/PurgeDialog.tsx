import { useId, useState } from 'react';
import type { ArchivedRoleView, UiError } from '../../../../common/ui-contract.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { uiErrorText } from '../../components/error-text.js';
import { useI18n } from '../../i18n/i18n.js';

/**
 * Deleting an archive for good cannot be undone, so a click is not enough: the user types the
 * role's ID (the button stays off until it matches; main checks it again).
 */
export function PurgeDialog({
  entry,
  busy,
  onPurge,
  onClose,
}: {
  entry: ArchivedRoleView;
  busy: boolean;
  onPurge(typed: string): Promise<UiError | undefined>;
  onClose(): void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<UiError>();
  const matches = typed.trim() === entry.id;
  return (
    <ConfirmDialog
      id="purge"
      icon="warning"
      tone="danger"
      title={t('archived.purge.title', { name: entry.name || entry.id })}
      body={
        <>
          <span className="dialog-text">{t('archived.purge.body')}</span>
          <label className="field-label purge-label" htmlFor={`${id}-typed`}>
            {t('archived.purge.type', { id: entry.id })}
          </label>
          <input
            id={`${id}-typed`}
            className="input mono"
            value={typed}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            data-testid="purge-confirm-id"
            onChange={(event) => {
              setTyped(event.target.value);
              setError(undefined);
            }}
          />
          {error ? (
            <span className="field-error" id={`${id}-error`} role="alert">
              {uiErrorText(t, error)}
            </span>
          ) : null}
        </>
      }
      confirmLabel={t('archived.purge.confirm')}
      busy={busy || !matches}
      onConfirm={() => void onPurge(typed).then(setError)}
      onClose={onClose}
    />
  );
}
