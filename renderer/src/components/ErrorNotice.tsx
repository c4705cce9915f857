import type { UiError } from '../../../common/ui-contract.js';
import { useI18n } from '../i18n/i18n.js';
import type { MessageKey } from '../i18n/messages-zh-TW.js';
import { Icon } from './icons.js';

/**
 * An error from main: a headline in the UI's language for its code, then main's own message
 * (it names the file or value) and hint. Never a stack trace: main sends none.
 */
export function ErrorNotice({ error, onRetry }: { error: UiError; onRetry?: () => void }) {
  const { t } = useI18n();
  const key = `error.code.${error.code}` as MessageKey;
  const headline = t(key) === key ? t('error.title') : t(key);
  return (
    <div className="error-notice" role="alert">
      <Icon name="warning" className="error-notice-icon" />
      <div className="error-notice-body">
        <p className="error-notice-headline">{headline}</p>
        <p className="error-notice-detail">{error.message}</p>
        {error.hint ? <p className="error-notice-hint">{error.hint}</p> : null}
        {onRetry ? (
          <button type="button" className="button button-secondary" onClick={onRetry}>
            {t('common.retry')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
