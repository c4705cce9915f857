import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { useI18n } from '../../i18n/i18n.js';

/**
 * "Sleep now" asks first: a consolidation moves the inbox into long-term memories, merges and
 * forgets, which is not undone by a click.
 */
export function SleepNowDialog({ name, onConfirm, onClose }: { name: string; onConfirm(): void; onClose(): void }) {
  const { t } = useI18n();
  return (
    <ConfirmDialog
      id="sleep-now"
      icon="sleep"
      tone="calm"
      title={t('sleepNow.confirmTitle', { name })}
      body={t('sleepNow.confirmBody')}
      confirmLabel={t('sleepNow.confirm')}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
