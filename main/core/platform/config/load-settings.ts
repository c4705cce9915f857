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
      return { ok: true, value: text };
    }
  }
}

const SETTING_ENTRIES = Object.entries(SETTINGS) as [SettingName, SettingSpec][];

/**
 * Resolve every setting: environment first, then the settings file (electron-store/conf JSON
 * in the app, or any plain object), then the default. Never throws.
 */
export function loadSettings(env: NodeJS.ProcessEnv, stored: Partial<Record<string, unknown>> = {}): LoadedSettings {
  const settings = {} as Record<string, unknown>;
  const sources = {} as Record<SettingName, 'env' | 'settings' | 'default'>;
  const problems: SettingProblem[] = [];
  // Every hook resolves every setting at its start (X-PERF): one pass over a list made once, and
  // nothing allocated for the settings neither the environment nor the file sets.
  for (const [name, spec] of SETTING_ENTRIES) {
    settings[name] = spec.default;
    sources[name] = 'default';
    const fromEnv = env[name];
    const fromFile = stored[name];
    if (fromEnv === undefined && (fromFile === undefined || fromFile === null)) continue;
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
        settings[name] = parsed.value;
        sources[name] = source;
        break;
      }
      problems.push({
        name,
        value: raw,
        source,
        message: `${name}=${JSON.stringify(raw)} ${source === 'env' ? 'in the environment' : 'in settings'} ignored: ${parsed.message}; using ${JSON.stringify(spec.default)}`,
      });
    }
  }
  return { settings: settings as Settings, problems, sources };
}
