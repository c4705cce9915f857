import type { SettingValue, SettingView } from '../../../../common/ui-contract.js';
import type { MessageKey } from '../../i18n/messages-zh-TW.js';

/**
 * What the settings form holds for one setting while it is edited, and how a draft becomes the
 * value main stores. The checks are the schema's (kind, min, max, choices: main/core/platform/config/
 * settings-schema.ts, sent with each setting), so most mistakes are marked at the field before
 * Save; main checks again with the readers' own parser and has the last word.
 */
export interface SettingDraft {
  /** Text for int/time/string/path; 'on'/'off' for bool; 'on'/'off'/'unset' for tristate. */
  text: string;
  /** Back to the default: the key leaves settings.json. */
  reset: boolean;
}

export function draftOf(setting: SettingView): SettingDraft {
  return { text: textOf(setting.kind, setting.value), reset: false };
}

export function textOf(kind: SettingView['kind'], value: SettingValue): string {
  if (kind === 'bool') return value === true ? 'on' : 'off';
  if (kind === 'tristate') return value === true ? 'on' : value === false ? 'off' : 'unset';
  return value === null ? '' : String(value);
}

export interface DraftError {
  key: MessageKey;
  values?: Record<string, string | number>;
}

export function draftError(setting: SettingView, draft: SettingDraft): DraftError | undefined {
  if (draft.reset) return undefined;
  const text = draft.text.trim();
  switch (setting.kind) {
    case 'int': {
      if (!/^-?\d+$/.test(text)) return { key: 'settings.error.int' };
      const n = Number(text);
      if (setting.min !== undefined && n < setting.min) return { key: 'settings.error.min', values: { min: setting.min } };
      if (setting.max !== undefined && n > setting.max) return { key: 'settings.error.max', values: { max: setting.max } };
      return undefined;
    }
    case 'time': {
      const m = /^(\d{1,2}):(\d{2})$/.exec(text);
      return !m || Number(m[1]) > 23 || Number(m[2]) > 59 ? { key: 'settings.error.time' } : undefined;
    }
    case 'string':
    case 'path':
      if (text && setting.choices && !setting.choices.includes(text))
        return { key: 'settings.error.choice', values: { choices: setting.choices.join(', ') } };
      if (text.length > 4096) return { key: 'settings.error.long' };
      return undefined;
    default:
      return undefined;
  }
}

/** The value to send: null = back to the default (a tristate "unset" and an emptied text are that too). */
export function valueOf(setting: SettingView, draft: SettingDraft): SettingValue {
  if (draft.reset) return null;
  const text = draft.text.trim();
  switch (setting.kind) {
    case 'int':
      return Number(text);
    case 'bool':
      return text === 'on';
    case 'tristate':
      return text === 'unset' ? null : text === 'on';
    default:
      return text === '' ? null : text;
  }
}

/** A draft the user changed: its value differs from what is in effect, or it asks for the default back. */
export function isChanged(setting: SettingView, draft: SettingDraft): boolean {
  if (draft.reset) return setting.source === 'settings';
  return draft.text.trim() !== textOf(setting.kind, setting.value);
}
