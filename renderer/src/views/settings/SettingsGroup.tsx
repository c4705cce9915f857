import { useEffect, useState } from 'react';
import type { SettingGroupId, SettingsView, SettingValue, SettingView, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { readDraft, useKeepDraft } from '../../app/drafts.js';
import { useLeaveGuard } from '../../app/leave-guard.js';
import { useNotices } from '../../app/notices.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';
import { SettingField } from './SettingField.js';
import { draftError, draftOf, isChanged, valueOf, type SettingDraft } from './setting-form.js';

type Drafts = Record<string, SettingDraft>;

const draftsOf = (settings: SettingView[]): Drafts => Object.fromEntries(settings.map((s) => [s.name, draftOf(s)]));

/**
 * One group of settings with its own Save (load budgets, sleep, naps, …): only the changed ones
 * are sent, and nothing is sent while a field is marked wrong. Main refuses the whole group if
 * one value cannot be saved, and the error is shown here.
 */
export function SettingsGroup({
  group,
  settings,
  onSaved,
}: {
  group: SettingGroupId;
  settings: SettingView[];
  onSaved(view: SettingsView): void;
}) {
  const { t } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  const draftKey = `settings:${group}`;
  const [drafts, setDrafts] = useState<Drafts>(() => readDraft(draftKey, draftsOf(settings)) ?? draftsOf(settings));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<UiError>();
  const fingerprint = JSON.stringify(settings.map((s) => [s.name, s.value, s.source]));
  // New values from main (after a save, or a reload) replace the drafts; same values keep them.
  useEffect(() => setDrafts(readDraft(draftKey, draftsOf(settings)) ?? draftsOf(settings)), [fingerprint]);

  const editable = settings.filter((s) => s.editable);
  const changed = editable.filter((s) => drafts[s.name] && isChanged(s, drafts[s.name]!));
  const invalid = editable.some((s) => drafts[s.name] && draftError(s, drafts[s.name]!));
  useLeaveGuard(changed.length > 0, { keepsDraft: true });
  useKeepDraft(draftKey, draftsOf(settings), drafts, changed.length > 0);

  const save = async () => {
    if (!changed.length || invalid || saving) return;
    setSaving(true);
    const values: Record<string, SettingValue> = Object.fromEntries(changed.map((s) => [s.name, valueOf(s, drafts[s.name]!)]));
    const answer = await bridge.invoke('settings.update', { values });
    setSaving(false);
    if (!answer.ok) {
      setError(answer.error);
      return;
    }
    setError(undefined);
    notify('success', t('settings.saved', { group: t(`settings.group.${group}`) }));
    onSaved(answer.value);
  };

  return (
    <section className="card settings-group" aria-labelledby={`settings-group-${group}`} data-group={group}>
      <header className="settings-group-head">
        <div>
          <h2 id={`settings-group-${group}`} className="card-title">
            {t(`settings.group.${group}`)}
          </h2>
          <p className="field-help">{t(`settings.group.${group}.help`)}</p>
        </div>
      </header>
      <div className="settings-fields">
        {settings.map((setting) => (
          <SettingField
            key={setting.name}
            setting={setting}
            draft={drafts[setting.name] ?? draftOf(setting)}
            onChange={(draft) => setDrafts((all) => ({ ...all, [setting.name]: draft }))}
          />
        ))}
      </div>
      {editable.length ? (
        <div className="form-actions settings-actions">
          {changed.length ? <span className="field-help">{t('settings.changedCount', { count: changed.length })}</span> : null}
          <button
            type="button"
            className="button button-secondary"
            disabled={!changed.length || saving}
            onClick={() => setDrafts(draftsOf(settings))}
          >
            {t('settings.discard')}
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={!changed.length || invalid || saving}
            onClick={() => void save()}
          >
            <Icon name="check" />
            {saving ? t('facts.saving') : t('settings.saveGroup')}
          </button>
        </div>
      ) : null}
      {error ? <ErrorNotice error={error} focus /> : null}
    </section>
  );
}
