import { useEffect, useRef, type ReactNode } from 'react';
import { Icon, type IconName } from './icons.js';
import { useI18n } from '../i18n/i18n.js';

/**
 * A question asked before something that a click does not undo (archiving a role, a sleep run).
 * A native modal <dialog>: it traps focus, closes on Escape and returns focus to the button that
 * opened it; Cancel has the focus, so Enter alone never confirms.
 */
export interface ConfirmDialogProps {
  /** Prefix of the title's and body's element ids (for aria-labelledby/-describedby). */
  id: string;
  icon: IconName;
  /** `calm` for an action that is not destructive. */
  tone: 'danger' | 'calm';
  title: ReactNode;
  body: ReactNode;
  confirmLabel: ReactNode;
  busy?: boolean;
  onConfirm(): void;
  onClose(): void;
}

export function ConfirmDialog({ id, icon, tone, title, body, confirmLabel, busy = false, onConfirm, onClose }: ConfirmDialogProps) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`} onClose={onClose}>
      <div className={tone === 'calm' ? 'dialog-icon dialog-icon-calm' : 'dialog-icon'}>
        <Icon name={icon} size={22} />
      </div>
      <h2 id={`${id}-title`} className="dialog-title">
        {title}
      </h2>
      <p id={`${id}-body`} className="dialog-body">
        {body}
      </p>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onClose} autoFocus>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className={tone === 'calm' ? 'button button-primary' : 'button button-danger'}
          disabled={busy}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
