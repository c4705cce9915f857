import ElectronStore from 'electron-store';
import type { Logger } from '../core/platform/config/log.js';
import { openSettingsStore, settingsStoreLocation, type SettingsStore } from './app-settings-logic.js';

/** electron-store on `<memory home>/.kioku/settings.json`, the file every Kioku process reads (APP-4). */
export function openElectronSettings(env: NodeJS.ProcessEnv, logger: Logger): SettingsStore {
  const { cwd, name } = settingsStoreLocation(env);
  return openSettingsStore(
    () => {
      const store = new ElectronStore<Record<string, unknown>>({ cwd, name });
      return {
        get: (key) => store.get(key),
        set: (key, value) => store.set(key, value),
        get store() {
          return store.store;
        },
      };
    },
    (message) => logger.warn('settings', message),
    `${cwd}/${name}.json`,
  );
}
