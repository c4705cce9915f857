import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { writeFileAtomicSync } from '../fs/atomic-write.js';
import { withLock } from '../fs/file-lock.js';
import { loadConfig } from './config.js';
import { loadSettings } from './load-settings.js';
import { SETTINGS, type SettingName } from './settings-schema.js';

/**
 * `<memory home>/.kioku/settings.json` (APP-4), written from the settings page. It is the file
 * every Kioku process reads (config.ts) and the app's electron-store keeps: the memory home comes
 * from the environment (or its default), never from the file itself (app-settings-logic.ts).
 * Writes are read-modify-write under a lock and atomic; keys this code does not know (the app's
 * `app.*` choices) are kept as they are, and a file that is not a JSON object is never replaced.
 */
export type StoredSettingValue = string | number | boolean;

export interface SettingsFileRead {
  file: string;
  exists: boolean;
  values: Record<string, unknown>;
  /** Why the file could not be used (not JSON, not an object); its values are then ignored. */
  problem?: string;
}

export function settingsFilePath(env: NodeJS.ProcessEnv): string {
  return loadConfig(env, { stored: {} }).paths.settingsFile;
}

export function readSettingsFile(env: NodeJS.ProcessEnv): SettingsFileRead {
  const file = settingsFilePath(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, exists: false, values: {} };
    return { file, exists: true, values: {}, problem: `cannot read ${file}: ${(error as Error).message}` };
  }
  try {
    const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, '') || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return { file, exists: true, values: parsed as Record<string, unknown> };
    return { file, exists: true, values: {}, problem: `${file} is not a JSON object` };
  } catch (error) {
    return { file, exists: true, values: {}, problem: `${file} is not valid JSON (${(error as Error).message})` };
  }
}

export function isSettingName(name: string): name is SettingName {
  return Object.prototype.hasOwnProperty.call(SETTINGS, name);
}

/**
 * The value to store for `name`, checked with the same parser every reader uses (load-settings.ts),
 * so the page can never save what a hook would then ignore. `null` (or an empty text): remove
 * the key, i.e. back to the default.
 */
export function storedValueFor(
  name: SettingName,
  value: StoredSettingValue | null,
): { ok: true; value: StoredSettingValue | null } | { ok: false; message: string } {
  if (value === null || (typeof value === 'string' && value.trim() === '')) return { ok: true, value: null };
  const loaded = loadSettings({}, { [name]: value });
  const problem = loaded.problems.find((p) => p.name === name);
  // The reader's message is "NAME=… in settings ignored: <reason>; using <default>": keep the reason.
  if (problem)
    return {
      ok: false,
      message: `${name}=${JSON.stringify(value)}: ${problem.message.replace(/^.*? ignored: /, '').replace(/; using .*$/, '')}`,
    };
  const parsed = loaded.settings[name] as StoredSettingValue | null;
  return { ok: true, value: parsed };
}

/** Set (or, with null, remove) settings in the file; every value is checked first, and nothing is written when one is wrong. */
export function updateSettingsFile(
  env: NodeJS.ProcessEnv,
  changes: Partial<Record<SettingName, StoredSettingValue | null>>,
): SettingsFileRead {
  const file = settingsFilePath(env);
  const problems: string[] = [];
  const values = new Map<SettingName, StoredSettingValue | null>();
  for (const [name, value] of Object.entries(changes) as [SettingName, StoredSettingValue | null][]) {
    const checked = storedValueFor(name, value);
    if (checked.ok) values.set(name, checked.value);
    else problems.push(checked.message);
  }
  if (problems.length) {
    throw new KiokuError('BAD_USAGE', `not saved: ${problems.join('; ')}`, {
      path: file,
      hint: 'correct the values marked and save again; nothing was written',
    });
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  return withLock(`${file}.lock`, { purpose: 'update settings.json', waitMs: 5_000, staleMs: 60_000 }, () => {
    const current = readSettingsFile(env);
    if (current.problem) {
      throw new KiokuError('INVALID_FILE', `${current.problem}; it was not changed`, {
        path: file,
        hint: 'fix or delete the file, then save again',
      });
    }
    const next: Record<string, unknown> = { ...current.values };
    for (const [name, value] of values) {
      if (value === null) delete next[name];
      else next[name] = value;
    }
    writeFileAtomicSync(file, `${JSON.stringify(next, null, '\t')}\n`);
    return { file, exists: true, values: next };
  });
}
