import { isUiErrorReason, type UiError } from '../../../common/ui-contract.js';
import type { Translate } from '../i18n/i18n.js';
import type { MessageKey } from '../i18n/messages-zh-TW.js';

/**
 * What the UI says for an error from main: its own text for the error's reason, else for its
 * code, else a generic line. Main's message is English and CLI-shaped (it names flags and
 * commands), so it is never shown; it stays in main's log and the developer tools.
 */
export function uiErrorText(t: Translate, error: UiError): string {
  if (isUiErrorReason(error.reason)) {
    const key = `error.reason.${error.reason}` as MessageKey;
    const text = t(key, error.reasonValues);
    if (text !== key) return text;
  }
  const codeKey = `error.code.${error.code}` as MessageKey;
  const byCode = t(codeKey);
  return byCode === codeKey ? t('error.title') : byCode;
}
