import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { useI18n } from '../i18n/i18n.js';
import { onBeforeUnload, setLeaveAsker } from './leave-guard.js';

/** Asks before a page with unsaved changes is left; Cancel (the default) keeps the page and the text. */
export function LeaveGuardDialog() {
  const { t } = useI18n();
  const [pending, setPending] = useState<{ proceed(): void; keepsDrafts: boolean }>();
  useEffect(() => {
    setLeaveAsker((proceed, keepsDrafts) => setPending({ proceed, keepsDrafts }));
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      setLeaveAsker(undefined);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, []);
  if (!pending) return null;
  return (
    <ConfirmDialog
      id="leave-guard"
      icon="warning"
      tone="danger"
      title={t('leave.title')}
      body={t(pending.keepsDrafts ? 'leave.bodyDraft' : 'leave.body')}
      confirmLabel={t('leave.confirm')}
      onConfirm={() => {
        setPending(undefined);
        pending.proceed();
      }}
      onClose={() => setPending(undefined)}
    />
  );
}
