import { useEffect, useRef } from 'react';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';

/**
 * "Sleep now" asks first: a consolidation moves the inbox into long-term memories, merges and
 * forgets, which is not undone by a click. A native modal <dialog>: focus trapped, Escape closes.
 */
export function SleepNowDialog({ name, onConfirm, onClose }: { name: string; onConfirm(): void; onClose(): void }) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="sleep-now-title" aria-describedby="sleep-now-body" onClose={onClose}>
      <div className="dialog-icon dialog-icon-calm">
        <Icon name="sleep" size={22} />
      </div>
      <h2 id="sleep-now-title" className="dialog-title">
        {t('sleepNow.confirmTitle', { name })}
      </h2>
      <p id="sleep-now-body" className="dialog-body">
        {t('sleepNow.confirmBody')}
      </p>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onClose} autoFocus>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button-primary" onClick={onConfirm}>
          {t('sleepNow.confirm')}
        </button>
      </div>
    </dialog>
  );
}
