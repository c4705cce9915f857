import { useI18n } from '../i18n/i18n.js';

/**
 * ROLE-5's table (field | old | new | changed), shared by every place that shows
 * a change before it is written (a role's fields, an emoji sheet's signature section). Changed
 * rows are marked; what the user confirms is exactly what the table shows.
 */
export interface OldNewRow {
  /** Stable key, also the row's `data-field`. */
  field: string;
  label: string;
  old: string;
  new: string;
  changed: boolean;
}

function Value({ text }: { text: string }) {
  const { t } = useI18n();
  return text ? <span className="diff-value">{text}</span> : <span className="diff-value muted">{t('common.empty')}</span>;
}

export function OldNewTable({ caption, testId, rows }: { caption: string; testId: string; rows: readonly OldNewRow[] }) {
  const { t } = useI18n();
  return (
    <div className="table-wrap">
      <table className="diff-table" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('diff.field')}</th>
            <th scope="col">{t('diff.old')}</th>
            <th scope="col">{t('diff.new')}</th>
            <th scope="col">{t('diff.changed')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.field}
              className={row.changed ? 'diff-row diff-row-changed' : 'diff-row'}
              data-field={row.field}
              data-changed={row.changed}
            >
              <th scope="row">{row.label}</th>
              <td className="diff-old">
                <Value text={row.old} />
              </td>
              <td className="diff-new">
                <Value text={row.new} />
              </td>
              <td>
                <span className={row.changed ? 'badge badge-accent' : 'badge badge-muted'}>
                  {row.changed ? t('diff.yes') : t('diff.no')}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
