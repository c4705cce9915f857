import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { clearDraft, readDraft, useKeepDraft } from '../../app/drafts.js';
import { useLeaveGuard } from '../../app/leave-guard.js';

const DRAFT_KEY = 'role-new';
import { useNotices } from '../../app/notices.js';
import { navigate } from '../../app/routes.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { uiErrorText } from '../../components/error-text.js';
import { Icon } from '../../components/icons.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useI18n } from '../../i18n/i18n.js';
import {
  createRequest,
  EMPTY_ROLE_FORM,
  firstError,
  validateRoleForm,
  type RoleFormErrors,
  type RoleFormField,
  type RoleFormValues,
} from './role-form.js';
import { focusField, RoleForm } from './RoleForm.js';
import { serverErrorField } from './role-form.js';

export function RoleCreate({ onDone }: { onDone(): void }) {
  const { t } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  const form = useRef<HTMLFormElement>(null);
  const [kept] = useState(() => readDraft(DRAFT_KEY, EMPTY_ROLE_FORM));
  const [values, setValues] = useState<RoleFormValues>(kept ?? EMPTY_ROLE_FORM);
  const [errors, setErrors] = useState<RoleFormErrors>({});
  const [serverError, setServerError] = useState<UiError>();
  const [busy, setBusy] = useState(false);
  const dirty = JSON.stringify(values) !== JSON.stringify(EMPTY_ROLE_FORM);
  useLeaveGuard(dirty, { keepsDraft: true });
  useKeepDraft(DRAFT_KEY, EMPTY_ROLE_FORM, values, dirty);
  useEffect(() => {
    if (kept) notify('info', t('draft.restored'));
  }, []); // once, for the draft found on opening

  const onChange = (field: RoleFormField, value: string) => {
    setValues((old) => ({ ...old, [field]: value }));
    if (errors[field]) setErrors((old) => ({ ...old, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateRoleForm(values, 'create', t);
    setErrors(found);
    if (firstError(found)) {
      focusField(form.current, firstError(found));
      return;
    }
    setBusy(true);
    setServerError(undefined);
    const result = await bridge.invoke('roles.create', createRequest(values));
    setBusy(false);
    if (!result.ok) {
      // An error about one field shows under that field, with the focus on it; others by the buttons.
      const field = serverErrorField(result.error);
      if (field) {
        setErrors((old) => ({ ...old, [field]: uiErrorText(t, result.error) }));
        focusField(form.current, field);
      } else setServerError(result.error);
      return;
    }
    const created = result.value;
    clearDraft(DRAFT_KEY);
    notify(
      'success',
      [t('create.done', { name: created.name, id: created.id }), created.madeActive ? t('create.madeActive') : '']
        .filter(Boolean)
        .join(' '),
    );
    onDone();
    navigate({ view: 'roles', page: { kind: 'list' } });
  };

  const hasErrors = Boolean(firstError(errors));
  return (
    <div className="page">
      <a className="back-link" href="#/roles">
        <Icon name="back" size={16} />
        {t('edit.back')}
      </a>
      <PageHeader title={t('create.title')} subtitle={t('create.subtitle')} />
      <form ref={form} className="card role-form" noValidate onSubmit={(event) => void submit(event)} aria-label={t('create.title')}>
        {hasErrors ? (
          <p className="form-summary" role="alert">
            {t('form.fixErrors')}
          </p>
        ) : null}
        <RoleForm mode="create" values={values} errors={errors} onChange={onChange} />
        {serverError ? <ErrorNotice error={serverError} focus /> : null}
        <div className="form-actions">
          <a className="button button-secondary" href="#/roles">
            {t('common.cancel')}
          </a>
          <button type="submit" className="button button-primary" disabled={busy}>
            <Icon name="plus" size={16} />
            {t('create.submit')}
          </button>
        </div>
      </form>
    </div>
  );
}
