import type { RoleChangeField, RoleFieldChange } from '../../../../common/ui-contract.js';
import { OldNewTable } from '../../components/OldNewTable.js';
import { useI18n } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages-zh-TW.js';

const LABELS: Record<RoleChangeField, MessageKey> = {
  id: 'field.id',
  name: 'field.name',
  nature: 'field.nature',
  vibe: 'field.vibe',
  emoji: 'field.emoji',
  aliases: 'field.aliases',
  source: 'field.source',
  relationship: 'field.relationship',
};

/**
 * The ROLE-5 table (field | old | new | changed), every field in the role skill's
 * order, changed rows marked. What the user confirms is exactly what this table shows: the
 * confirm token was computed by main from the same input.
 */
export function RoleChangeTable({ id, changes }: { id: string; changes: RoleFieldChange[] }) {
  const { t } = useI18n();
  const rows = changes.map((change) => ({
    field: change.field,
    label: t(LABELS[change.field]),
    old: change.old,
    new: change.new,
    changed: change.changed,
  }));
  return <OldNewTable caption={t('diff.caption', { id })} testId="role-change-table" rows={rows} />;
}
