import { useState, type KeyboardEvent } from 'react';
import { type SETTING_GROUPS, type SettingGroupId, type SettingsView as SettingsData } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useLoaded } from '../../app/use-loaded.js';
import { useTheme, type Theme } from '../../app/theme.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { PageHeader } from '../../components/PageHeader.js';
import { LANGUAGES, useI18n } from '../../i18n/i18n.js';
import { SettingsGroup } from './SettingsGroup.js';
import './settings.css';

const THEMES: Theme[] = ['system', 'light', 'dark'];

/** The groups in the order a user looks for them; `fixed` (environment only) last. */
const GROUP_ORDER = [
  'load',
  'sleep',
  'nap',
  'brief',
  'capture',
  'calls',
  'general',
  'fixed',
] as const satisfies readonly (typeof SETTING_GROUPS)[number][];
const GROUP_KEY = 'kioku.settingsGroup';

function storedGroup(): SettingGroupId {
  try {
    const value = sessionStorage.getItem(GROUP_KEY);
    return (GROUP_ORDER as readonly string[]).includes(value ?? '') ? (value as SettingGroupId) : 'load';
  } catch {
    return 'load';
  }
}

/** This window's own choices: language and theme (kept in the browser, not in settings.json). */
function InterfaceCard() {
  const { t, language, setLanguage } = useI18n();
  const [theme, setTheme] = useTheme();
  return (
    <section className="card settings-card" aria-labelledby="settings-interface">
      <div>
        <h2 id="settings-interface" className="card-title">
          {t('settings.interface')}
        </h2>
        <p className="field-help">{t('settings.interface.help')}</p>
      </div>
      <fieldset className="choice-group">
        <legend className="field-label">{t('settings.language')}</legend>
        <p className="field-help">{t('settings.language.help')}</p>
        <div className="segmented">
          {LANGUAGES.map((option) => (
            <label key={option.id} className={language === option.id ? 'segment segment-on' : 'segment'}>
              <input
                type="radio"
                name="language"
                value={option.id}
                checked={language === option.id}
                onChange={() => setLanguage(option.id)}
              />
              <span lang={option.id}>{option.label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="choice-group">
        <legend className="field-label">{t('settings.theme')}</legend>
        <div className="segmented">
          {THEMES.map((option) => (
            <label key={option} className={theme === option ? 'segment segment-on' : 'segment'}>
              <input type="radio" name="theme" value={option} checked={theme === option} onChange={() => setTheme(option)} />
              <span>{t(`settings.theme.${option}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
    </section>
  );
}

/**
 * Settings (APP-4): the window's language and theme, then every ROLE_* / KIOKU_* setting by group
 * with where its value comes from. Saved to settings.json, which the hooks, the CLI and the
 * scheduler read fresh; a value set in the environment wins and is shown read-only.
 */
export function SettingsView() {
  const { t } = useI18n();
  const bridge = useBridge();
  const {
    value: data,
    error,
    reload: load,
    setValue: setData,
  } = useLoaded<SettingsData>(() => bridge.invoke('settings.get', {}), [bridge]);

  const envCount = data?.settings.filter((s) => s.readOnly === 'env').length ?? 0;
  const groups = GROUP_ORDER.filter((group) => data?.settings.some((s) => s.group === group));
  const [tab, setTab] = useState<SettingGroupId>(storedGroup);
  const choose = (group: SettingGroupId) => {
    setTab(group);
    try {
      sessionStorage.setItem(GROUP_KEY, group);
    } catch {
      /* this window only */
    }
  };
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const at = groups.indexOf(tab);
    const next = groups[(at + (event.key === 'ArrowRight' ? 1 : groups.length - 1)) % groups.length];
    if (!next) return;
    choose(next);
    document.getElementById(`settings-tab-${next}`)?.focus();
  };
  return (
    <div className="page settings-page">
      <PageHeader title={t('settings.title')} subtitle={t('settings.subtitle')} />
      <InterfaceCard />
      {error ? <ErrorNotice error={error} onRetry={() => void load()} /> : null}
      {data ? (
        <>
          <div className="settings-file-note">
            <Icon name="info" />
            <div>
              <p>{t('settings.fileNote', { file: data.file })}</p>
              {envCount ? <p className="field-help">{t('settings.envNote', { count: envCount })}</p> : null}
            </div>
          </div>
          {data.fileProblem ? <p className="form-summary">{data.fileProblem}</p> : null}
          <div className="tabs settings-tabs" role="tablist" aria-label={t('settings.toc')} onKeyDown={onTabKey}>
            {groups.map((group) => (
              <button
                key={group}
                id={`settings-tab-${group}`}
                type="button"
                role="tab"
                className={tab === group ? 'tab tab-on' : 'tab'}
                aria-selected={tab === group}
                aria-controls={`settings-panel-${group}`}
                tabIndex={tab === group ? 0 : -1}
                onClick={() => choose(group)}
              >
                {t(`settings.group.${group}`)}
              </button>
            ))}
          </div>
          {/* Every group stays mounted (hidden when not chosen), so unsaved changes survive switching tabs. */}
          {groups.map((group) => (
            <div
              key={group}
              id={`settings-panel-${group}`}
              role="tabpanel"
              aria-labelledby={`settings-tab-${group}`}
              hidden={group !== tab}
            >
              <SettingsGroup group={group} settings={data.settings.filter((s) => s.group === group)} onSaved={setData} />
            </div>
          ))}
        </>
      ) : !error ? (
        <p className="loading">{t('common.loading')}</p>
      ) : null}
    </div>
  );
}
