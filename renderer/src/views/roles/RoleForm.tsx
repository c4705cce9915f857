import { useId, type ReactNode } from 'react';
import { useI18n } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages-zh-TW.js';
import { FIELD_LABELS, type RoleFormErrors, type RoleFormField, type RoleFormValues } from './role-form.js';

interface FieldProps {
  field: RoleFormField;
  values: RoleFormValues;
  errors: RoleFormErrors;
  onChange(field: RoleFormField, value: string): void;
  required?: boolean;
  multiline?: boolean;
  help?: MessageKey;
  className?: string;
  mono?: boolean;
  placeholder?: string;
}

/** One labelled input with its help and its error, tied together for screen readers. */
function Field({ field, values, errors, onChange, required, multiline, help, className, mono, placeholder }: FieldProps) {
  const { t } = useI18n();
  const id = useId();
  const error = errors[field];
  const describedBy = [help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: field,
    value: values[field],
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': required || undefined,
    'data-field': field,
    placeholder,
  };
  return (
    <div className={`field ${className ?? ''}${error ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {t(FIELD_LABELS[field])}
        <span className={required ? 'field-tag field-tag-required' : 'field-tag'}>
          {required ? t('common.required') : t('common.optional')}
        </span>
      </label>
      {help ? (
        <p className="field-help" id={`${id}-help`}>
          {t(help)}
        </p>
      ) : null}
      {multiline ? (
        <textarea {...common} className="input textarea" rows={4} onChange={(event) => onChange(field, event.target.value)} />
      ) : (
        <input
          {...common}
          className={mono ? 'input mono' : 'input'}
          type="text"
          autoComplete="off"
          spellCheck={mono ? false : undefined}
          onChange={(event) => onChange(field, event.target.value)}
        />
      )}
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="form-section">
      <legend className="form-section-title">{title}</legend>
      <div className="form-grid">{children}</div>
    </fieldset>
  );
}

/**
 * The fields of a role, identity then soul (ROLE-1: `<ID>.identity.md` holds
 * name, emoji, aliases, source and relationship; `<ID>.soul.md` nature and vibe). Creating adds
 * the ID section; editing shows the ID but cannot change it (the ID names the files).
 */
export function RoleForm({
  mode,
  values,
  errors,
  onChange,
}: {
  mode: 'create' | 'edit';
  values: RoleFormValues;
  errors: RoleFormErrors;
  onChange(field: RoleFormField, value: string): void;
}) {
  const { t } = useI18n();
  const props = { values, errors, onChange };
  return (
    <>
      <Section title={t('form.identity')}>
        <Field field="name" required help="field.name.help" {...props} />
        <Field field="emoji" required help="field.emoji.help" className="field-narrow" {...props} />
        <Field field="aliases" help="field.aliases.help" className="field-wide" {...props} />
        <Field field="relationship" multiline help="field.relationship.help" className="field-wide" {...props} />
        <Field field="source" multiline help="field.source.help" className="field-wide" {...props} />
      </Section>
      <Section title={t('form.soul')}>
        <Field field="nature" required multiline help="field.nature.help" className="field-wide" {...props} />
        <Field field="vibe" required multiline help="field.vibe.help" className="field-wide" {...props} />
      </Section>
      {mode === 'create' ? (
        <Section title={t('form.idSection')}>
          <Field field="prefix" help="field.prefix.help" mono placeholder="ENGINEER" {...props} />
          <Field field="customId" help="field.customId.help" mono placeholder="ENGINEER01" {...props} />
        </Section>
      ) : null}
    </>
  );
}

/** Focus the first invalid field after a submit, so the user lands where the problem is. */
export function focusField(form: HTMLFormElement | null, field: RoleFormField | undefined): void {
  if (!form || !field) return;
  form.querySelector<HTMLElement>(`[data-field="${field}"]`)?.focus();
}
