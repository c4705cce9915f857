import { forwardRef } from 'react';
import type { EmojiGridPreview, EmojiSavePlan } from '../../../../../common/ui-contract.js';
import { Icon } from '../../../components/icons.js';
import { OldNewTable } from '../../../components/OldNewTable.js';
import { useI18n } from '../../../i18n/i18n.js';
import { MoodImages } from './MoodPreviews.js';

/**
 * ROLE-5 before a save: the 簽名 emoji section old vs new (ROLE-5's table:
 * field | old | new | changed), the nine cells exactly as main will cut them, and the files that will
 * be written. Nothing is written until "確認儲存" sends back the plan's token.
 */
export const EmojiSaveReview = forwardRef<
  HTMLElement,
  { plan: EmojiSavePlan; preview: EmojiGridPreview; busy: boolean; onBack(): void; onConfirm(): void }
>(function EmojiSaveReview({ plan, preview, busy, onBack, onConfirm }, ref) {
  const { t } = useI18n();
  const { change } = plan;
  return (
    <section className="card review-card" ref={ref} tabIndex={-1} aria-labelledby="emoji-review-title" data-testid="emoji-review">
      <h2 id="emoji-review-title" className="card-title">
        {t('emoji.review.title')}
      </h2>
      <p className="card-text">{change.changed ? t('emoji.review.intro', { id: plan.id }) : t('emoji.review.unchanged')}</p>
      <OldNewTable
        caption={t('emoji.review.caption', { id: plan.id })}
        testId="emoji-signature-table"
        rows={[{ field: 'signature', label: t('emoji.review.field'), old: change.old, new: change.new, changed: change.changed }]}
      />
      <div className="review-columns">
        <div className="review-block">
          <h3 className="review-subtitle">{t('emoji.review.cut')}</h3>
          <MoodImages cells={preview.cells} testId="emoji-review-cells" />
        </div>
        <div className="review-block">
          <h3 className="review-subtitle">{t('emoji.review.files', { count: plan.files.length })}</h3>
          <ul className="review-files">
            {plan.files.map((file) => (
              <li key={file} className="mono">
                {file.split(/[\\/]/).pop()}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onBack}>
          {t('emoji.review.back')}
        </button>
        <button type="button" className="button button-primary" disabled={busy} onClick={onConfirm}>
          <Icon name="check" size={16} />
          {t('emoji.review.confirm')}
        </button>
      </div>
    </section>
  );
});
