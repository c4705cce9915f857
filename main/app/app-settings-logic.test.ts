import fs from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../test/helpers/temp-home.js';
import { loadConfig } from '../core/platform/config/config.js';
import {
  APP_KEYS,
  configFromStore,
  memorySettingsStore,
  openSettingsStore,
  settingsStoreLocation,
  storePreferences,
  type SettingsStore,
} from './app-settings-logic.js';

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

/** conf is what electron-store wraps: same file format, same options. */
function confAt(env: NodeJS.ProcessEnv): SettingsStore {
  const { cwd, name } = settingsStoreLocation(env);
  const conf = new Conf<Record<string, unknown>>({ cwd, configName: name });
  return {
    get: (k) => conf.get(k),
    set: (k, v) => conf.set(k, v),
    get store() {
      return conf.store;
    },
  };
}

describe('app settings in the store (APP-4)', () => {
  it('use the settings.json every Kioku process reads, in the memory home of the environment', () => {
    home = makeTempHome();
    const location = settingsStoreLocation(home.env);
    expect(path.join(location.cwd, `${location.name}.json`)).toBe(home.config().paths.settingsFile);
    confAt(home.env).set('ROLE_LOAD_LIMIT', 1234);
    // The CLI and the hooks read the same value without electron-store.
    expect(loadConfig(home.env).settings.ROLE_LOAD_LIMIT).toBe(1234);
  });

  it('let a ROLE_* environment variable win over the stored value', () => {
    home = makeTempHome();
    const store = confAt(home.env);
    store.set('ROLE_NAP_IDLE_MINUTES', 90);
    expect(configFromStore(home.env, store).settings.ROLE_NAP_IDLE_MINUTES).toBe(90);
    expect(configFromStore({ ...home.env, ROLE_NAP_IDLE_MINUTES: '15' }, store).settings.ROLE_NAP_IDLE_MINUTES).toBe(15);
  });

  it('keep the app-only choices under "app", where no ROLE_* reader looks, across restarts', () => {
    home = makeTempHome();
    const prefs = storePreferences(confAt(home.env));
    expect([prefs.schedulePaused(), prefs.openAtLogin()]).toEqual([false, false]);
    prefs.setSchedulePaused(true);
    prefs.setOpenAtLogin(true);
    const again = storePreferences(confAt(home.env));
    expect([again.schedulePaused(), again.openAtLogin()]).toEqual([true, true]);
    expect(JSON.parse(fs.readFileSync(home.config().paths.settingsFile, 'utf8'))).toEqual({
      app: { schedulePaused: true, openAtLogin: true },
    });
    expect(loadConfig(home.env).problems).toEqual([]);
    expect(APP_KEYS.schedulePaused.startsWith('app.')).toBe(true);
  });

  it('never overwrite a settings.json they cannot read: the app runs on defaults in memory and says which file', () => {
    home = makeTempHome();
    const file = home.config().paths.settingsFile;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{ "ROLE_LOAD_LIMIT": 12, oops');
    const warnings: string[] = [];
    const store = openSettingsStore(
      () => confAt(home!.env),
      (m) => warnings.push(m),
      file,
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(file);
    storePreferences(store).setSchedulePaused(true);
    expect(storePreferences(store).schedulePaused()).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('{ "ROLE_LOAD_LIMIT": 12, oops');
  });

  it('memory store: dotted keys like conf, copies out', () => {
    const store = memorySettingsStore({ ROLE_NAME: 'A01' });
    store.set('app.openAtLogin', true);
    expect(store.get('app.openAtLogin')).toBe(true);
    expect(store.get('app.nothing')).toBeUndefined();
    const copy = store.store;
    (copy.app as Record<string, unknown>).openAtLogin = false;
    expect(store.get('app.openAtLogin')).toBe(true);
  });
});
