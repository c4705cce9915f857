import { describe, expect, it } from 'vitest';
import { loadSettings } from './load-settings.js';
import { SETTINGS } from './settings-schema.js';

describe('loadSettings', () => {
  it('gives every seed 000 default when nothing is set', () => {
    const { settings, problems } = loadSettings({});
    expect(problems).toEqual([]);
    expect(settings.ROLE_SLEEP_START).toBe('22:00');
    expect(settings.ROLE_SLEEP_END).toBe('06:00');
    expect(settings.ROLE_LOAD_LIMIT).toBe(4000);
    expect(settings.ROLE_LOAD_INBOX_LIMIT).toBe(3600);
    expect(settings.ROLE_LOAD_BONDS_COUNT).toBe(15);
    expect(settings.ROLE_CAPTURE_MIN_CHARS).toBe(240);
    expect(settings.ROLE_SLEEP_BATCH).toBe(4);
    expect(settings.ROLE_SINGLE_INSTANCE).toBe(true);
    expect(settings.ROLE_ENABLED).toBeNull();
    expect(settings.ROLE_HOME).toBe('~/.roles');
    expect(settings.KIOKU_HOOK_OUTPUT_LIMIT).toBe(9800);
  });

  it('lets the environment win over stored settings', () => {
    const { settings, sources } = loadSettings({ ROLE_LOAD_LIMIT: '1200' }, { ROLE_LOAD_LIMIT: 3000, ROLE_NAP_IDLE_MINUTES: 20 });
    expect(settings.ROLE_LOAD_LIMIT).toBe(1200);
    expect(sources.ROLE_LOAD_LIMIT).toBe('env');
    expect(settings.ROLE_NAP_IDLE_MINUTES).toBe(20);
    expect(sources.ROLE_NAP_IDLE_MINUTES).toBe('settings');
  });

  it('reports a bad value by name and falls back to the stored value, then the default', () => {
    const { settings, problems } = loadSettings({ ROLE_LOAD_LIMIT: 'lots', ROLE_SLEEP_START: '25:00' }, { ROLE_LOAD_LIMIT: 2500 });
    expect(settings.ROLE_LOAD_LIMIT).toBe(2500);
    expect(settings.ROLE_SLEEP_START).toBe('22:00');
    expect(problems.map((p) => p.name).sort()).toEqual(['ROLE_LOAD_LIMIT', 'ROLE_SLEEP_START']);
    expect(problems.find((p) => p.name === 'ROLE_LOAD_LIMIT')!.message).toContain('"lots"');
  });

  it('reads 0 as off and an empty variable as unset', () => {
    const { settings } = loadSettings({ ROLE_ENABLED: '0', ROLE_CAPTURE_ENABLED: '0', ROLE_NAME: '' });
    expect(settings.ROLE_ENABLED).toBe(false);
    expect(settings.ROLE_CAPTURE_ENABLED).toBe(false);
    expect(settings.ROLE_NAME).toBeNull();
  });

  it('normalises times to HH:MM', () => {
    expect(loadSettings({ ROLE_SLEEP_START: '7:05' }).settings.ROLE_SLEEP_START).toBe('07:05');
  });

  it('starts every call from the defaults, whatever an earlier call set', () => {
    const first = loadSettings({ ROLE_LOAD_LIMIT: '1200' }, { ROLE_SLEEP_START: '23:30' });
    expect([first.settings.ROLE_LOAD_LIMIT, first.settings.ROLE_SLEEP_START]).toEqual([1200, '23:30']);
    const second = loadSettings({});
    expect([second.settings.ROLE_LOAD_LIMIT, second.settings.ROLE_SLEEP_START]).toEqual([4000, '22:00']);
    expect([second.sources.ROLE_LOAD_LIMIT, second.sources.ROLE_SLEEP_START]).toEqual(['default', 'default']);
    // Every setting, in the table's order (kioku status and the settings page list them so).
    expect(Object.keys(second.settings)).toEqual(Object.keys(SETTINGS));
    expect(Object.keys(second.sources)).toEqual(Object.keys(SETTINGS));
  });

  it('describes every setting', () => {
    for (const [name, spec] of Object.entries(SETTINGS)) expect(spec.description, name).not.toBe('');
  });
});
