import type { RoleChangeField, RoleFieldChange } from '../../../../common/ui-contract.js';
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

function Value({ text }: { text: string }) {
  const { t } = useI18n();
  return text ? <span className="diff-value">{text}</span> : <span className="diff-value muted">{t('common.empty')}</span>;
}

/**
 * The ROLE-5 table (seed 000 §--new step 7: 欄位｜舊值｜新值｜變更), every field in the seed's
 * order, changed rows marked. What the user confirms is exactly what this table shows: the
 * confirm token was computed by main from the same input.
 */
export function RoleChangeTable({ id, changes }: { id: string; changes: RoleFieldChange[] }) {
  const { t } = useI18n();
  return (
    <div className="table-wrap">
      <table className="diff-table" data-testid="role-change-table">
        <caption className="visually-hidden">{t('diff.caption', { id })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('diff.field')}</th>
            <th scope="col">{t('diff.old')}</th>
            <th scope="col">{t('diff.new')}</th>
            <th scope="col">{t('diff.changed')}</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={change.field} className={change.changed ? 'diff-row diff-row-changed' : 'diff-row'} data-field={change.field} data-changed={change.changed}>
              <th scope="row">{t(LABELS[change.field])}</th>
              <td className="diff-old">
                <Value text={change.old} />
              </td>
              <td className="diff-new">
                <Value text={change.new} />
              </td>
              <td>
                <span className={change.changed ? 'badge badge-accent' : 'badge badge-muted'}>{change.changed ? t('diff.yes') : t('diff.no')}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
