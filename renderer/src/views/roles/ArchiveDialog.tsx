import { useEffect, useRef } from 'react';
import type { RoleListItem } from '../../../../common/ui-contract.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';

/**
 * Archiving asks first, and says that nothing is destroyed (ROLE-8). A native modal <dialog>:
 * it traps focus, closes on Escape and returns focus to the button that opened it.
 */
export function ArchiveDialog({ role, busy, onConfirm, onClose }: { role: RoleListItem; busy: boolean; onConfirm(): void; onClose(): void }) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const name = role.name || role.id;
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="archive-title" aria-describedby="archive-body" onClose={onClose}>
      <div className="dialog-icon">
        <Icon name="archive" size={22} />
      </div>
      <h2 id="archive-title" className="dialog-title">
        {t('archive.title', { name })}
      </h2>
      <p id="archive-body" className="dialog-body">
        {t('archive.body')}
      </p>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onClose} autoFocus>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button-danger" disabled={busy} onClick={onConfirm}>
          {t('archive.confirm')}
        </button>
      </div>
    </dialog>
  );
}
