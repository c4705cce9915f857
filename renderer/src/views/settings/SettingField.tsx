import { useId } from 'react';
import type { SettingValue, SettingView } from '../../../../common/ui-contract.js';
import { useI18n, type Translate } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages-zh-TW.js';
import { draftError, textOf, type SettingDraft } from './setting-form.js';

/** The setting's name in the UI's language; the schema's English line for one the catalogue lacks. */
export function settingLabel(t: Translate, setting: SettingView): string {
  const key = `setting.${setting.name}` as MessageKey;
  const label = t(key);
  return label === key ? setting.description : label;
}

export function shownValue(t: Translate, kind: SettingView['kind'], value: SettingValue): string {
  if (kind === 'bool') return value === true ? t('settings.on') : t('settings.off');
  if (kind === 'tristate') return value === true ? t('settings.on') : value === false ? t('settings.off') : t('settings.unset');
  return value === null || value === '' ? t('settings.none') : String(value);
}

const SOURCE_KEYS = { env: 'settings.source.env', settings: 'settings.source.settings', default: 'settings.source.default' } as const;

/**
 * One setting: its name, the variable, where the value comes from, and an input that fits its
 * kind (a number with its range, a switch, HH:MM, a choice or text). Read-only when the
 * environment sets it (it wins over the file, APP-4) or it belongs to the environment alone.
 */
export function SettingField({
  setting,
  draft,
  onChange,
}: {
  setting: SettingView;
  draft: SettingDraft;
  onChange(draft: SettingDraft): void;
}) {
  const { t, formatNumber } = useI18n();
  const id = useId();
  const error = setting.editable ? draftError(setting, draft) : undefined;
  const label = settingLabel(t, setting);
  const help = [
    setting.kind === 'int' && (setting.min !== undefined || setting.max !== undefined)
      ? setting.max !== undefined
        ? t('settings.range', { min: formatNumber(setting.min ?? 0), max: formatNumber(setting.max) })
        : t('settings.atLeast', { min: formatNumber(setting.min ?? 0) })
      : '',
    t('settings.default', { value: shownValue(t, setting.kind, setting.default) }),
  ]
    .filter(Boolean)
    .join(' · ');
  const describedBy = `${id}-help${error ? ` ${id}-error` : ''}${setting.readOnly ? ` ${id}-ro` : ''}`;
  const common = { id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined, 'data-setting': setting.name };

  const input = (() => {
    if (!setting.editable) {
      return (
        <p className="setting-readonly-value" id={id} data-setting={setting.name}>
          {shownValue(t, setting.kind, setting.value)}
        </p>
      );
    }
    if (draft.reset) {
      return (
        <p className="setting-reset-note" id={id}>
          {t('settings.willReset', { value: shownValue(t, setting.kind, setting.default) })}
        </p>
      );
    }
    if (setting.kind === 'bool') {
      const on = draft.text === 'on';
      return (
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-labelledby={`${id}-label`}
          className={on ? 'switch switch-on' : 'switch'}
          {...common}
          onClick={() => onChange({ ...draft, text: on ? 'off' : 'on' })}
        >
          <span className="switch-knob" aria-hidden="true" />
          <span className="switch-text">{on ? t('settings.on') : t('settings.off')}</span>
        </button>
      );
    }
    if (setting.kind === 'tristate') {
      return (
        <select
          className="input setting-input"
          {...common}
          value={draft.text}
          onChange={(event) => onChange({ ...draft, text: event.target.value })}
        >
          <option value="unset">{t('settings.tristate.unset')}</option>
          <option value="on">{t('settings.tristate.on')}</option>
          <option value="off">{t('settings.tristate.off')}</option>
        </select>
      );
    }
    if (setting.choices) {
      return (
        <select
          className="input setting-input"
          {...common}
          value={draft.text}
          onChange={(event) => onChange({ ...draft, text: event.target.value })}
        >
          {setting.choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      );
    }
    if (setting.kind === 'int') {
      return (
        <input
          className="input setting-input setting-number"
          type="number"
          inputMode="numeric"
          step={1}
          min={setting.min}
          max={setting.max}
          {...common}
          value={draft.text}
          onChange={(event) => onChange({ ...draft, text: event.target.value })}
        />
      );
    }
    if (setting.kind === 'time') {
      return (
        <input
          className="input setting-input setting-time"
          type="time"
          {...common}
          value={draft.text ? draft.text.padStart(5, '0') : ''}
          onChange={(event) => onChange({ ...draft, text: event.target.value })}
        />
      );
    }
    return (
      <input
        className={setting.kind === 'path' ? 'input setting-input mono' : 'input setting-input'}
        type="text"
        spellCheck={false}
        autoComplete="off"
        {...common}
        value={draft.text}
        placeholder={setting.default === null ? t('settings.none') : String(setting.default)}
        onChange={(event) => onChange({ ...draft, text: event.target.value })}
      />
    );
  })();

  const canReset = setting.editable && setting.source === 'settings' && !draft.reset;
  return (
    <div
      className={`setting-field${error ? ' field-invalid' : ''}${setting.editable ? '' : ' setting-field-readonly'}`}
      data-setting-row={setting.name}
    >
      <div className="setting-head">
        <label className="field-label" htmlFor={setting.kind === 'bool' || !setting.editable ? undefined : id} id={`${id}-label`}>
          {label}
        </label>
        <span className="setting-name mono">{setting.name}</span>
        <span className={`badge setting-source setting-source-${setting.source}`}>{t(SOURCE_KEYS[setting.source])}</span>
      </div>
      <div className="setting-control">
        {input}
        {canReset ? (
          <button
            type="button"
            className="setting-link"
            onClick={() => onChange({ text: textOf(setting.kind, setting.default), reset: true })}
          >
            {t('settings.useDefault')}
          </button>
        ) : null}
        {draft.reset ? (
          <button type="button" className="setting-link" onClick={() => onChange({ ...draft, reset: false })}>
            {t('settings.undoReset')}
          </button>
        ) : null}
      </div>
      <p className="field-help" id={`${id}-help`}>
        {help}
      </p>
      {setting.readOnly ? (
        <p className="setting-ro-note" id={`${id}-ro`}>
          {setting.readOnly === 'env'
            ? t('settings.readOnly.env', {
                stored:
                  setting.stored === undefined ? '' : t('settings.readOnly.stored', { value: shownValue(t, setting.kind, setting.stored) }),
              })
            : t('settings.readOnly.fixed')}
        </p>
      ) : null}
      {setting.problem ? <p className="field-error">{setting.problem}</p> : null}
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {t(error.key, error.values)}
        </p>
      ) : null}
    </div>
  );
}
