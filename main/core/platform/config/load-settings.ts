import { SETTINGS, type SettingName, type SettingSpec, type Settings } from './settings-schema.js';

/** A setting whose value could not be used; the default was used instead. */
export interface SettingProblem {
  name: SettingName;
  value: string;
  source: 'env' | 'settings';
  message: string;
}

export interface LoadedSettings {
  settings: Settings;
  problems: SettingProblem[];
  /** Where each value came from, for `kioku status` and the settings page. */
  sources: Record<SettingName, 'env' | 'settings' | 'default'>;
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

function parseValue(spec: SettingSpec, raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const text = raw.trim();
  switch (spec.kind) {
    case 'int': {
      if (!/^-?\d+$/.test(text)) return { ok: false, message: 'expected a whole number' };
      const n = Number(text);
      if (spec.min !== undefined && n < spec.min) return { ok: false, message: `expected at least ${spec.min}` };
      if (spec.max !== undefined && n > spec.max) return { ok: false, message: `expected at most ${spec.max}` };
      return { ok: true, value: n };
    }
    case 'bool':
    case 'tristate': {
      const lower = text.toLowerCase();
      if (TRUE_WORDS.has(lower)) return { ok: true, value: true };
      if (FALSE_WORDS.has(lower)) return { ok: true, value: false };
      if (spec.kind === 'tristate' && lower === '') return { ok: true, value: null };
      return { ok: false, message: 'expected 1 or 0' };
    }
    case 'time': {
      const m = /^(\d{1,2}):(\d{2})$/.exec(text);
      if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return { ok: false, message: 'expected HH:MM, e.g. 22:00' };
      return { ok: true, value: `${m[1]!.padStart(2, '0')}:${m[2]}` };
    }
    case 'string':
    case 'path': {
      if (text === '') return { ok: true, value: spec.default };
      if (spec.choices && !spec.choices.includes(text)) {
        return { ok: false, message: `expected one of ${spec.choices.join(', ')}` };
      }
      const problem = spec.validate?.(text);
      if (problem) return { ok: false, message: problem };
      return { ok: true, value: spec.canonical?.(text) ?? text };
    }
  }
}

const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];
/**
 * Every setting at its default, and every source 'default', made once: each process starts from
 * a copy of these. Built a property at a time, a 47-setting object made V8 a new shape per
 * property, twice, on every hook's start (X-PERF, issue 17).
 */
const DEFAULT_SETTINGS: Record<string, unknown> = Object.fromEntries(SETTING_NAMES.map((name) => [name, SETTINGS[name].default]));
const DEFAULT_SOURCES = Object.fromEntries(SETTING_NAMES.map((name) => [name, 'default'])) as LoadedSettings['sources'];

/** The first of the environment's and the file's values that parses, else a problem for each that does not. */
function resolveSetting(name: SettingName, fromEnv: string | undefined, fromFile: unknown, out: LoadedSettings): void {
  const spec: SettingSpec = SETTINGS[name];
  for (const [source, rawValue] of [
    ['env', fromEnv],
    ['settings', fromFile],
  ] as const) {
    if (rawValue === undefined || rawValue === null) continue;
    const raw = typeof rawValue === 'boolean' ? (rawValue ? '1' : '0') : String(rawValue);
    // An empty environment variable means "unset" for every kind (shell habit: VAR= cmd).
    if (raw.trim() === '' && source === 'env') continue;
    const parsed = parseValue(spec, raw);
    if (parsed.ok) {
      (out.settings as Record<string, unknown>)[name] = parsed.value;
      out.sources[name] = source;
      return;
    }
    out.problems.push({
      name,
      value: raw,
      source,
      message: `${name}=${JSON.stringify(raw)} ${source === 'env' ? 'in the environment' : 'in settings'} ignored: ${parsed.message}; using ${JSON.stringify(spec.default)}`,
    });
  }
}

/**
 * Resolve every setting: environment first, then the settings file (electron-store/conf JSON
 * in the app, or any plain object), then the default. Never throws.
 */
export function loadSettings(env: NodeJS.ProcessEnv, stored: Partial<Record<string, unknown>> = {}): LoadedSettings {
  const out: LoadedSettings = { settings: { ...DEFAULT_SETTINGS } as Settings, problems: [], sources: { ...DEFAULT_SOURCES } };
  // Every hook resolves every setting at its start (X-PERF): an indexed pass over the names, and
  // nothing more for the settings neither the environment nor the file sets.
  for (let i = 0; i < SETTING_NAMES.length; i++) {
    const name = SETTING_NAMES[i]!;
    const fromEnv = env[name];
    const fromFile = stored[name];
    if (fromEnv !== undefined || (fromFile !== undefined && fromFile !== null)) resolveSetting(name, fromEnv, fromFile, out);
  }
  return out;
}
