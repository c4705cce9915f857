import { clockFromEnv, type Clock } from './clock.js';
import { applyUserTimeZone } from './time-zone.js';
import { loadSettings, type SettingProblem } from './load-settings.js';
import { resolvePaths, type KiokuPaths } from './paths.js';
import { readStoredSettings, type StoredSettingsRead } from './stored-settings.js';
import type { Settings } from './settings-schema.js';

/**
 * Everything a Kioku process needs to know about its surroundings, resolved once.
 * Core functions take a KiokuConfig instead of reading process.env, so tests and the daemon can
 * run several homes side by side.
 */
export interface KiokuConfig {
  settings: Settings;
  paths: KiokuPaths;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  problems: SettingProblem[];
}

export interface LoadConfigOptions {
  /** Settings to use instead of reading settings.json (tests, the Electron store). */
  stored?: Record<string, unknown>;
  /** settings.json as this process has read it already (the hook client reads it before its config): not read again. */
  storedRead?: StoredSettingsRead;
  clock?: Clock;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): KiokuConfig {
  const storedRead = options.stored ? { values: options.stored } : (options.storedRead ?? readStoredSettings(env));
  const { settings, problems } = loadSettings(env, storedRead.values);
  if ('problem' in storedRead && storedRead.problem) {
    problems.push({ name: 'ROLE_MEMORY_HOME', value: '', source: 'settings', message: storedRead.problem });
  }
  // ROLE_TIMEZONE moves this process's clock, so it applies only to the process's own environment
  // (a test or the daemon resolving another home's config must not move everyone's clock).
  if (env === process.env) applyUserTimeZone(settings.ROLE_TIMEZONE, env);
  return {
    settings,
    paths: resolvePaths(settings, env),
    clock: options.clock ?? clockFromEnv(env),
    env,
    problems,
  };
}
