import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';

/**
 * Issue 16: "this memory is wrong", with an optional correction that becomes a new memory.
 * A native modal <dialog> like ConfirmDialog: focus trapped, Escape cancels, Cancel focused first.
 */
export function MarkWrongDialog({ busy, onConfirm, onClose }: { busy: boolean; onConfirm(correction: string): void; onClose(): void }) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  const [correction, setCorrection] = useState('');
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="mark-wrong-title" aria-describedby="mark-wrong-body" onClose={onClose}>
      <div className="dialog-icon">
        <Icon name="warning" size={22} />
      </div>
      <h2 id="mark-wrong-title" className="dialog-title">
        {t('memoryActions.wrongDialog.title')}
      </h2>
      <p id="mark-wrong-body" className="dialog-body">
        {t('memoryActions.wrongDialog.body')}
      </p>
      <div className="field">
        <label className="field-label" htmlFor="mark-wrong-correction">
          {t('memoryActions.wrongDialog.correction')}
        </label>
        <textarea
          id="mark-wrong-correction"
          className="input textarea"
          rows={3}
          value={correction}
          onChange={(event) => setCorrection(event.target.value)}
        />
      </div>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onClose} autoFocus>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button-danger" disabled={busy} onClick={() => onConfirm(correction.trim())}>
          {t('memoryActions.wrongDialog.confirm')}
        </button>
      </div>
    </dialog>
  );
}
