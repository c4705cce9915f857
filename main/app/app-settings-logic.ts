import { describeError } from '../../common/errors.js';
import { loadConfig, type KiokuConfig } from '../core/platform/config/config.js';
import type { TrayPreferences } from '../core/hosts/tray/tray-controller.js';

/**
 * The app's settings (APP-4) live in electron-store, in the very file every Kioku process reads:
 * `<memory home>/.kioku/settings.json` (config.ts).
 * Design notes: docs/design-notes.md, "main/app/app-settings-logic.ts".
 */
export interface SettingsStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  /** The whole file, read fresh (conf reads the file on every access). */
  readonly store: Record<string, unknown>;
}

export const APP_KEYS = {
  schedulePaused: 'app.schedulePaused',
  openAtLogin: 'app.openAtLogin',
} as const;

/** Where electron-store/conf must keep the file: `{cwd, name}` → `<cwd>/<name>.json`. */
export function settingsStoreLocation(env: NodeJS.ProcessEnv): { cwd: string; name: string } {
  // The memory home comes from the environment (or its default), never from the file itself.
  return { cwd: loadConfig(env, { stored: {} }).paths.stateDir, name: 'settings' };
}

/** A store that forgets on quit: used when settings.json cannot be read, so a broken file is never overwritten. */
export function memorySettingsStore(initial: Record<string, unknown> = {}): SettingsStore {
  const data: Record<string, unknown> = structuredClone(initial);
  const path = (key: string) => key.split('.');
  return {
    get(key) {
      let node: unknown = data;
      for (const part of path(key)) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
      return node;
    },
    set(key, value) {
      const parts = path(key);
      let node = data;
      for (const part of parts.slice(0, -1)) {
        const next = node[part];
        node = (node[part] = next && typeof next === 'object' ? next : {}) as Record<string, unknown>;
      }
      node[parts[parts.length - 1]!] = value;
    },
    get store() {
      return structuredClone(data);
    },
  };
}

/**
 * Open the real store, or fall back to memory with a warning naming the file when it cannot be
 * read (invalid JSON): electron-store would throw, and must never be allowed to replace the
 * user's file with an empty one.
 */
export function openSettingsStore(open: () => SettingsStore, warn: (message: string) => void, file: string): SettingsStore {
  try {
    return open();
  } catch (error) {
    warn(
      `cannot read the settings file ${file} (${describeError(error)}); the app uses the defaults and the environment, and changes made now are not saved. Fix or delete the file, then restart Kioku.`,
    );
    return memorySettingsStore();
  }
}

/** The config of the app: ROLE_* from the environment, then the store, then the defaults. */
export function configFromStore(env: NodeJS.ProcessEnv, store: SettingsStore): KiokuConfig {
  let stored: Record<string, unknown>;
  try {
    stored = store.store;
  } catch {
    stored = {}; // the file broke while the app ran: config.ts reports why the next time it reads it
  }
  return loadConfig(env, { stored });
}

function readBoolean(store: SettingsStore, key: string): boolean {
  try {
    return store.get(key) === true;
  } catch {
    return false;
  }
}

/** The tray's saved choices, on the store. */
export function storePreferences(store: SettingsStore): TrayPreferences {
  return {
    schedulePaused: () => readBoolean(store, APP_KEYS.schedulePaused),
    setSchedulePaused: (paused) => store.set(APP_KEYS.schedulePaused, paused),
    openAtLogin: () => readBoolean(store, APP_KEYS.openAtLogin),
    setOpenAtLogin: (on) => store.set(APP_KEYS.openAtLogin, on),
  };
}
