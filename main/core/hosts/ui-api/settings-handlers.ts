import { KiokuError } from '../../../../common/errors.js';
import type { SettingGroupId, SettingsView, SettingValue, SettingView, UiParsedRequest } from '../../../../common/ui-contract.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { loadSettings } from '../../platform/config/load-settings.js';
import { isSettingName, readSettingsFile, updateSettingsFile, type StoredSettingValue } from '../../platform/config/settings-file.js';
import { SETTINGS, type SettingName, type SettingSpec } from '../../platform/config/settings-schema.js';

/**
 * The settings page (APP-4): every ROLE_* / KIOKU_* setting of the schema with the value in
 * effect and where it comes from. The environment wins over settings.json (load-settings.ts), so
 * a setting set there is shown read-only: saving it to the file would change nothing the user
 * sees. A few belong to an environment and never to a shared file (`FIXED`).
 */
const GROUP_OF: Partial<Record<SettingName, SettingGroupId>> = {
  ROLE_ENABLED: 'general',
  ROLE_SCOPE: 'general',
  ROLE_ERRLOG: 'general',
  KIOKU_HOOK_OUTPUT_LIMIT: 'general',
  KIOKU_SYNC_INTERVAL_MINUTES: 'general',
  KIOKU_SYNC_LEASE_MINUTES: 'sleep',
  ROLE_LOAD_LIMIT: 'load',
  ROLE_LOAD_FULL_MIN_PRIORITY: 'load',
  ROLE_LOAD_DIGEST_MIN_PRIORITY: 'load',
  ROLE_LOAD_INBOX_LIMIT: 'load',
  ROLE_LOAD_INBOX_COUNT: 'load',
  ROLE_LOAD_BONDS_LIMIT: 'load',
  ROLE_LOAD_BONDS_COUNT: 'load',
  ROLE_LOAD_DIALOG_TURNS: 'load',
  ROLE_LOAD_DIALOG_LIMIT: 'load',
  ROLE_SLEEP_START: 'sleep',
  ROLE_SLEEP_END: 'sleep',
  ROLE_TIMEZONE: 'sleep',
  ROLE_SLEEP_ALL_ROLES: 'sleep',
  ROLE_SLEEP_TIMEOUT: 'sleep',
  ROLE_SLEEP_COLLECT_LIMIT: 'sleep',
  ROLE_SLEEP_BATCH: 'sleep',
  ROLE_SLEEP_EXISTING_LIMIT: 'sleep',
  ROLE_SLEEP_OUTPUT_LIMIT: 'sleep',
  ROLE_SLEEP_REMIND_INBOX: 'sleep',
  ROLE_NAP_ENABLED: 'nap',
  ROLE_NAP_IDLE_MINUTES: 'nap',
  ROLE_NAP_MIN_INBOX: 'nap',
  ROLE_NAP_INTERVAL_MINUTES: 'nap',
  ROLE_BRIEF_ENABLED: 'brief',
  ROLE_BRIEF_TIMEOUT: 'brief',
  ROLE_BRIEF_EACH_LIMIT: 'brief',
  ROLE_BRIEF_LIMIT: 'brief',
  ROLE_CAPTURE_ENABLED: 'capture',
  ROLE_CAPTURE_MIN_CHARS: 'capture',
  ROLE_CAPTURE_TIMEOUT: 'capture',
  ROLE_CLI: 'capture',
  ROLE_MODEL: 'capture',
  ROLE_CALL_ENABLED: 'calls',
  ROLE_CALL_MARKER_ONLY: 'calls',
  ROLE_SINGLE_INSTANCE: 'calls',
  ROLE_INSTANCE_IDLE_MINUTES: 'calls',
  ROLE_SKIP_INSTANCE_LOCK: 'calls',
  ROLE_HOME: 'fixed',
  ROLE_MEMORY_HOME: 'fixed',
  ROLE_NAME: 'fixed',
  KIOKU_NOW: 'fixed',
};

/**
 * Read-only here whatever their source: the two homes (settings.json itself lives in the memory
 * home, so moving it from inside the file would strand the file), ROLE_NAME (the active role is
 * chosen in the role list; ROLE_NAME pins one environment, ROLE-4), ROLE_SKIP_INSTANCE_LOCK (set by
 * sub-agent environments only: in the shared file it would lift every session's lock, LOCK-1) and
 * KIOKU_NOW (tests).
 */
const FIXED: ReadonlySet<SettingName> = new Set(['ROLE_HOME', 'ROLE_MEMORY_HOME', 'ROLE_NAME', 'ROLE_SKIP_INSTANCE_LOCK', 'KIOKU_NOW']);

const asValue = (value: unknown): SettingValue =>
  value === null || value === undefined ? null : typeof value === 'number' || typeof value === 'boolean' ? value : String(value);

export function settingsView(config: Pick<KiokuConfig, 'env'>): SettingsView {
  const file = readSettingsFile(config.env);
  const loaded = loadSettings(config.env, file.values);
  const settings: SettingView[] = (Object.entries(SETTINGS) as [SettingName, SettingSpec][]).map(([name, spec]) => {
    const source = loaded.sources[name];
    const problem = loaded.problems.find((p) => p.name === name);
    const readOnly = FIXED.has(name) ? 'fixed' : source === 'env' ? 'env' : undefined;
    const view: SettingView = {
      name,
      kind: spec.kind,
      group: GROUP_OF[name] ?? 'general',
      value: asValue(loaded.settings[name]),
      default: asValue(spec.default),
      source,
      description: spec.description,
      editable: readOnly === undefined,
    };
    if (spec.min !== undefined) view.min = spec.min;
    if (spec.max !== undefined) view.max = spec.max;
    if (spec.choices) view.choices = spec.choices;
    if (readOnly) view.readOnly = readOnly;
    if (source === 'env' && file.values[name] !== undefined) view.stored = asValue(file.values[name]);
    if (problem) view.problem = problem.message;
    return view;
  });
  return {
    file: file.file,
    settings,
    ...(file.problem ? { fileProblem: `${file.problem}; its values are ignored until it is fixed or deleted` } : {}),
  };
}

/** Save some settings (one group of the page) to settings.json; refused whole when one cannot be saved. */
export function updateSettings(config: Pick<KiokuConfig, 'env'>, request: UiParsedRequest<'settings.update'>): SettingsView {
  const current = settingsView(config);
  const byName = new Map(current.settings.map((setting) => [setting.name, setting]));
  const changes: Partial<Record<SettingName, StoredSettingValue | null>> = {};
  const refused: string[] = [];
  for (const [name, value] of Object.entries(request.values)) {
    const setting = byName.get(name);
    if (!isSettingName(name) || !setting) refused.push(`${name} is not a Kioku setting`);
    else if (setting.readOnly === 'env')
      refused.push(`${name} is set in the environment (${JSON.stringify(setting.value)}), which wins over the settings file`);
    else if (setting.readOnly === 'fixed') refused.push(`${name} is set only in the environment, not from the settings page`);
    else changes[name] = value;
  }
  if (refused.length) {
    throw new KiokuError('REFUSED', `not saved: ${refused.join('; ')}`, {
      hint: 'change an environment setting where it is set (your shell profile or the service definition), then restart Kioku',
      reason: 'settings.fromEnvironment',
      // The settings page ties the error to the first refused setting's control.
      field: Object.keys(request.values).find((name) => !(name in changes)),
    });
  }
  updateSettingsFile(config.env, changes);
  return settingsView(config);
}
