import type { MemoryClarityName } from '../../../../common/ui-contract.js';
import { useI18n } from '../../i18n/i18n.js';

/**
 * PM-2's state at a glance: a full dot when clear, a half one when faded (gist only), a dashed
 * circle with a question mark when fuzzy (only "something happened" — raised as a question);
 * inbox items have none yet. Always labelled, never colour alone.
 */
export function ClarityMark({ clarity, withText }: { clarity: MemoryClarityName | null; withText?: boolean }) {
  const { t } = useI18n();
  const label = clarity ? t(`clarity.${clarity}`) : t('clarity.inbox');
  return (
    <span
      className={`clarity-mark clarity-${clarity ?? 'none'}`}
      title={label}
      aria-label={withText ? undefined : label}
      role={withText ? undefined : 'img'}
    >
      <span className="clarity-glyph" aria-hidden="true">
        {clarity === 'fuzzy' ? '?' : null}
      </span>
      {withText ? <span className="clarity-text">{label}</span> : null}
    </span>
  );
}
