import type { RoleListItem } from '../../../../common/ui-contract.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { useI18n } from '../../i18n/i18n.js';

/** Archiving asks first, and says that nothing is destroyed (ROLE-8). */
export function ArchiveDialog({
  role,
  busy,
  onConfirm,
  onClose,
}: {
  role: RoleListItem;
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}) {
  const { t } = useI18n();
  const name = role.name || role.id;
  return (
    <ConfirmDialog
      id="archive"
      icon="archive"
      tone="danger"
      title={t('archive.title', { name })}
      body={t('archive.body')}
      confirmLabel={t('archive.confirm')}
      busy={busy}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
