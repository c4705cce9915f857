import fs from 'node:fs';
import path from 'node:path';
import { clockFromEnv, type Clock } from './clock.js';
import { applyUserTimeZone } from './time-zone.js';
import { loadSettings, type SettingProblem } from './load-settings.js';
import { memoryHomeFromEnv, resolvePaths, type KiokuPaths } from './paths.js';
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

/**
 * The settings file lives in the state dir of the memory home, which itself may be set in the
 * environment; so the memory home is resolved from env/defaults first, then the file is read.
 * Plain JSON read: the hook hot path must not load conf/electron-store.
 */
function readStoredSettings(env: NodeJS.ProcessEnv): { values: Record<string, unknown>; problem?: string; file: string } {
  const file = path.join(memoryHomeFromEnv(env), '.kioku', 'settings.json');
  // Most homes have no settings file (it is written when a setting is changed), and a read that
  // throws is the first exception of every hook and command: 0.3 ms to make, where asking first
  // is 0.02 (session 28). A file removed in between is caught all the same.
  if (!fs.existsSync(file)) return { values: {}, file };
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { values: {}, file };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { values: parsed as Record<string, unknown>, file };
    return { values: {}, file, problem: `settings file ${file} is not a JSON object; ignored it (fix or delete the file)` };
  } catch (error) {
    return {
      values: {},
      file,
      problem: `settings file ${file} is not valid JSON (${(error as Error).message}); ignored it (fix or delete the file)`,
    };
  }
}

export interface LoadConfigOptions {
  /** Settings to use instead of reading settings.json (tests, the Electron store). */
  stored?: Record<string, unknown>;
  clock?: Clock;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): KiokuConfig {
  const storedRead = options.stored ? { values: options.stored } : readStoredSettings(env);
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
