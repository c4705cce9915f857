import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { RoleChangePlan, RoleDetail, UiError, UiRequest } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { readDraft, useKeepDraft } from '../../app/drafts.js';
import { useLeaveGuard } from '../../app/leave-guard.js';
import { useNotices } from '../../app/notices.js';
import { hrefFor, navigate } from '../../app/routes.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useI18n } from '../../i18n/i18n.js';
import {
  editInput,
  firstError,
  validateRoleForm,
  valuesFromRole,
  type RoleFormErrors,
  type RoleFormField,
  type RoleFormValues,
} from './role-form.js';
import { RoleChangeTable } from './RoleChangeTable.js';
import { focusField, RoleForm } from './RoleForm.js';

type EditInput = UiRequest<'roles.planChange'>['input'];

/**
 * Edit identity and soul (ROLE-5): "review" asks main for the old/new table and a token and
 * writes nothing; "apply" sends the very input that was reviewed with that token. If the files
 * changed in between, main refuses and the user reviews again.
 */
export function RoleEdit({ id, onDone }: { id: string; onDone(): void }) {
  const { t } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  const form = useRef<HTMLFormElement>(null);
  const draftKey = `role-edit:${id}`;
  const review = useRef<HTMLElement>(null);
  const [role, setRole] = useState<RoleDetail>();
  const [loadError, setLoadError] = useState<UiError>();
  const [values, setValues] = useState<RoleFormValues>();
  const [errors, setErrors] = useState<RoleFormErrors>({});
  const [serverError, setServerError] = useState<UiError>();
  const [plan, setPlan] = useState<{ plan: RoleChangePlan; input: EditInput }>();
  const [busy, setBusy] = useState(false);
  const base = useMemo(() => (role ? valuesFromRole(role) : undefined), [role]);
  const dirty = Boolean(base && values && JSON.stringify(values) !== JSON.stringify(base));
  useLeaveGuard(dirty, { keepsDraft: true });
  useKeepDraft(draftKey, base, values, dirty);

  const load = useCallback(async () => {
    setLoadError(undefined);
    const result = await bridge.invoke('roles.get', { id });
    if (!result.ok) return setLoadError(result.error);
    setRole(result.value);
    const base = valuesFromRole(result.value);
    const kept = readDraft(draftKey, base);
    setValues(kept ?? base);
    if (kept) notify('info', t('draft.restored'));
  }, [bridge, id]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (plan) review.current?.focus();
  }, [plan]);

  if (loadError) {
    return (
      <div className="page">
        <a className="back-link" href="#/roles">
          <Icon name="back" size={16} />
          {t('edit.back')}
        </a>
        <PageHeader title={t('edit.loadFailed')} />
        <ErrorNotice error={loadError} onRetry={() => void load()} />
      </div>
    );
  }
  if (!role || !values) return <p className="loading">{t('common.loading')}</p>;

  const onChange = (field: RoleFormField, value: string) => {
    setValues((old) => (old ? { ...old, [field]: value } : old));
    if (errors[field]) setErrors((old) => ({ ...old, [field]: undefined }));
    setPlan(undefined); // a reviewed change is void once the form differs from it
  };

  const askForPlan = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateRoleForm(values, 'edit', t);
    setErrors(found);
    if (firstError(found)) return focusField(form.current, firstError(found));
    setBusy(true);
    setServerError(undefined);
    const input = editInput(role.id, values);
    const result = await bridge.invoke('roles.planChange', { input });
    setBusy(false);
    if (!result.ok) return setServerError(result.error);
    setPlan({ plan: result.value, input });
  };

  const apply = async () => {
    if (!plan) return;
    setBusy(true);
    setServerError(undefined);
    const result = await bridge.invoke('roles.applyChange', { input: plan.input, token: plan.plan.token });
    setBusy(false);
    if (!result.ok) {
      setServerError(result.error);
      setPlan(undefined);
      return;
    }
    notify('success', t('diff.applied', { name: result.value.role.name }));
    onDone();
    navigate({ view: 'roles', page: { kind: 'list' } });
  };

  return (
    <div className="page">
      <a className="back-link" href="#/roles">
        <Icon name="back" size={16} />
        {t('edit.back')}
      </a>
      <PageHeader
        title={t('edit.title', { name: role.name })}
        subtitle={t('edit.subtitle')}
        actions={
          <>
            <a
              className="button button-secondary"
              href={hrefFor({ view: 'roles', page: { kind: 'emoji', id: role.id } })}
              data-testid="emoji-sheet-link"
            >
              <Icon name="image" size={16} />
              {t('emoji.open')}
            </a>
            <span className="role-heading-badge">
              <span className="avatar" aria-hidden="true">
                {role.emoji}
              </span>
              <span className="mono">{role.id}</span>
            </span>
          </>
        }
      />
      {plan ? (
        <section className="card review-card" ref={review} tabIndex={-1} aria-labelledby="review-title" data-testid="role-review">
          <h2 id="review-title" className="card-title">
            {t('diff.title')}
          </h2>
          {plan.plan.changed ? (
            <>
              <p className="card-text">{t('diff.intro', { id: plan.plan.id })}</p>
              {plan.plan.legacy ? <p className="card-text callout">{t('diff.legacy')}</p> : null}
              <RoleChangeTable id={plan.plan.id} changes={plan.plan.changes} />
              <div className="form-actions">
                <button type="button" className="button button-secondary" onClick={() => setPlan(undefined)}>
                  {t('diff.back')}
                </button>
                <button type="button" className="button button-primary" disabled={busy} onClick={() => void apply()}>
                  <Icon name="check" size={16} />
                  {t('diff.confirm')}
                </button>
              </div>
            </>
          ) : (
            <>
              <p className="card-text">{t('diff.noChange')}</p>
              <div className="form-actions">
                <button type="button" className="button button-secondary" onClick={() => setPlan(undefined)}>
                  {t('diff.back')}
                </button>
              </div>
            </>
          )}
        </section>
      ) : (
        <form
          ref={form}
          className="card role-form"
          noValidate
          onSubmit={(event) => void askForPlan(event)}
          aria-label={t('edit.title', { name: role.name })}
        >
          {firstError(errors) ? (
            <p className="form-summary" role="alert">
              {t('form.fixErrors')}
            </p>
          ) : null}
          <RoleForm mode="edit" values={values} errors={errors} onChange={onChange} />
          {serverError ? <ErrorNotice error={serverError} focus /> : null}
          <div className="form-actions">
            <a className="button button-secondary" href="#/roles">
              {t('common.cancel')}
            </a>
            <button type="submit" className="button button-primary" disabled={busy}>
              {t('edit.review')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
