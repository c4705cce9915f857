import { useEffect, useRef } from 'react';
import type { UiError } from '../../../common/ui-contract.js';
import { useI18n } from '../i18n/i18n.js';
import { uiErrorText } from './error-text.js';
import { Icon } from './icons.js';

/**
 * An error from main, in the UI's own words for its code (error-text.ts); never main's English
 * message or a CLI hint, never a stack trace. `focus`: take the focus when it appears, so a
 * failure next to a button is where the eye and the screen reader already are.
 */
export function ErrorNotice({ error, onRetry, id, focus = false }: { error: UiError; onRetry?: () => void; id?: string; focus?: boolean }) {
  const { t } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!focus) return;
    box.current?.focus();
    box.current?.scrollIntoView?.({ block: 'nearest' });
  }, [focus, error]);
  return (
    <div
      className="error-notice"
      role="alert"
      id={id}
      ref={box}
      tabIndex={focus ? -1 : undefined}
      data-error-code={error.reason ?? error.code}
    >
      <Icon name="warning" className="error-notice-icon" />
      <div className="error-notice-body">
        <p className="error-notice-headline">{uiErrorText(t, error)}</p>
        {onRetry ? (
          <button type="button" className="button button-secondary" onClick={onRetry}>
            {t('common.retry')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
