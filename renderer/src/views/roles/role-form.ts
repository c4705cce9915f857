import { isValidNewRoleId, isValidRoleId, isValidRolePrefix } from '../../../../common/role-id.js';
import type { RoleDetail, UiRequest } from '../../../../common/ui-contract.js';
import type { Translate } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages-zh-TW.js';

/** What the role form holds: text as typed, aliases as one comma-separated line. */
export interface RoleFormValues {
  name: string;
  emoji: string;
  aliases: string;
  relationship: string;
  source: string;
  nature: string;
  vibe: string;
  prefix: string;
  customId: string;
}

export type RoleFormField = keyof RoleFormValues;
export type RoleFormErrors = Partial<Record<RoleFormField, string>>;

export const EMPTY_ROLE_FORM: RoleFormValues = {
  name: '',
  emoji: '',
  aliases: '',
  relationship: '',
  source: '',
  nature: '',
  vibe: '',
  prefix: '',
  customId: '',
};

export const FIELD_LABELS: Record<RoleFormField, MessageKey> = {
  name: 'field.name',
  emoji: 'field.emoji',
  aliases: 'field.aliases',
  relationship: 'field.relationship',
  source: 'field.source',
  nature: 'field.nature',
  vibe: 'field.vibe',
  prefix: 'field.prefix',
  customId: 'field.customId',
};

/** The order errors are reported and focused in: the order of the form. */
export const FIELD_ORDER: RoleFormField[] = ['name', 'emoji', 'nature', 'vibe', 'relationship', 'source', 'aliases', 'prefix', 'customId'];

/** Commas in either width, and the enumeration comma 、 that zh-TW typists reach for. */
export function splitAliases(text: string): string[] {
  return text
    .split(/[,，、]/)
    .map((alias) => alias.trim())
    .filter(Boolean);
}

/**
 * The prefix an English display name gives (mirrors prefixFromName in
 * main/core/store/roles/role-next-id.ts, which the renderer may not import): none for a CJK name.
 */
function prefixFromName(name: string): string | undefined {
  if (/[^\x20-\x7e]/.test(name)) return undefined;
  const letters = name
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/^[0-9]+/, '')
    .slice(0, 16);
  return isValidRolePrefix(letters) ? letters : undefined;
}

const LIMITS: Partial<Record<RoleFormField, number>> = {
  name: 200,
  emoji: 64,
  nature: 20_000,
  vibe: 20_000,
  relationship: 20_000,
  source: 20_000,
};
const ONE_LINE: RoleFormField[] = ['name', 'emoji', 'aliases', 'prefix', 'customId'];

/**
 * The checks the form makes before asking main (which checks again): the four fields ROLE-5
 * requires (nothing is guessed), one-line fields, lengths, and the role ID rules
 * of common/role-id.ts (ROLE-3), so the user hears about a bad ID before anything is sent.
 */
export function validateRoleForm(values: RoleFormValues, mode: 'create' | 'edit', t: Translate): RoleFormErrors {
  const errors: RoleFormErrors = {};
  const label = (field: RoleFormField) => t(FIELD_LABELS[field]);
  for (const field of ['name', 'emoji', 'nature', 'vibe'] as const) {
    if (!values[field].trim()) errors[field] = t('validation.required', { field: label(field) });
  }
  for (const field of ONE_LINE) {
    if (!errors[field] && /[\r\n]/.test(values[field])) errors[field] = t('validation.oneLine', { field: label(field) });
  }
  for (const [field, max] of Object.entries(LIMITS) as [RoleFormField, number][]) {
    if (!errors[field] && values[field].length > max) errors[field] = t('validation.tooLong', { field: label(field), max });
  }
  if (mode === 'create') {
    const prefix = values.prefix.trim();
    const id = values.customId.trim();
    if (prefix && !isValidRolePrefix(prefix)) errors.prefix = t('validation.prefix');
    if (id && !isValidNewRoleId(id)) {
      errors.customId =
        id.toUpperCase() !== id && isValidRoleId(id.toUpperCase())
          ? t('validation.idLowercase', { upper: id.toUpperCase() })
          : t('validation.id');
    }
    if (!prefix && !id && values.name.trim() && !prefixFromName(values.name.trim())) errors.prefix = t('validation.needPrefix');
  }
  return errors;
}

export function firstError(errors: RoleFormErrors): RoleFormField | undefined {
  return FIELD_ORDER.find((field) => errors[field]);
}

export function valuesFromRole(role: RoleDetail): RoleFormValues {
  return {
    name: role.name,
    emoji: role.emoji,
    aliases: role.aliases.join(', '),
    relationship: role.relationship,
    source: role.source,
    nature: role.nature,
    vibe: role.vibe,
    prefix: '',
    customId: role.id,
  };
}

const texts = (values: RoleFormValues) => ({
  name: values.name.trim(),
  emoji: values.emoji.trim(),
  nature: values.nature.trim(),
  vibe: values.vibe.trim(),
  relationship: values.relationship.trim(),
  source: values.source.trim(),
  aliases: splitAliases(values.aliases),
});

export function createRequest(values: RoleFormValues): UiRequest<'roles.create'> {
  const prefix = values.prefix.trim();
  const id = values.customId.trim();
  return { input: { ...texts(values), ...(prefix ? { prefix } : {}), ...(id ? { id } : {}) } };
}

/** Every field is sent: an edit states the whole new role, and the table shows what differs. */
export function editInput(id: string, values: RoleFormValues): UiRequest<'roles.planChange'>['input'] {
  return { id, ...texts(values) };
}

/** The form field a server error is about (main names request fields: `id` is the custom ID here). */
export function serverErrorField(error: { field?: string }): RoleFormField | undefined {
  if (error.field === 'id') return 'customId';
  return error.field !== undefined && error.field in FIELD_LABELS ? (error.field as RoleFormField) : undefined;
}
