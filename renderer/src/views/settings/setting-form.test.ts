import { describe, expect, it } from 'vitest';
import type { SettingView } from '../../../../common/ui-contract.js';
import { draftError, draftOf, isChanged, valueOf } from './setting-form.js';

const base = { group: 'nap', source: 'default', description: '', editable: true } as const;
const interval: SettingView = { ...base, name: 'ROLE_NAP_INTERVAL_MINUTES', kind: 'int', value: 10, default: 10, min: 1, max: 59 };
const start: SettingView = { ...base, name: 'ROLE_SLEEP_START', kind: 'time', value: '22:00', default: '22:00' };
const nap: SettingView = { ...base, name: 'ROLE_NAP_ENABLED', kind: 'bool', value: true, default: true };
const enabled: SettingView = { ...base, name: 'ROLE_ENABLED', kind: 'tristate', value: null, default: null };
const cli: SettingView = { ...base, name: 'ROLE_CLI', kind: 'string', value: 'auto', default: 'auto', choices: ['auto', 'local'] };

describe('the settings form', () => {
  it('marks numbers outside the schema’s range and malformed times', () => {
    expect(draftError(interval, { text: '60', reset: false })).toEqual({ key: 'settings.error.max', values: { max: 59 } });
    expect(draftError(interval, { text: '0', reset: false })).toEqual({ key: 'settings.error.min', values: { min: 1 } });
    expect(draftError(interval, { text: '1.5', reset: false })).toEqual({ key: 'settings.error.int' });
    expect(draftError(interval, { text: ' 59 ', reset: false })).toBeUndefined();
    expect(draftError(start, { text: '24:00', reset: false })).toEqual({ key: 'settings.error.time' });
    expect(draftError(start, { text: '7:05', reset: false })).toBeUndefined();
    expect(draftError(cli, { text: 'vim', reset: false })?.key).toBe('settings.error.choice');
  });

  it('turns drafts into the values main stores', () => {
    expect(valueOf(interval, { text: '30', reset: false })).toBe(30);
    expect(valueOf(nap, { text: 'off', reset: false })).toBe(false);
    expect(valueOf(enabled, { text: 'unset', reset: false })).toBeNull();
    expect(valueOf(enabled, { text: 'off', reset: false })).toBe(false);
    expect(valueOf(start, { text: '', reset: false })).toBeNull();
    expect(valueOf(interval, { text: '30', reset: true })).toBeNull();
  });

  it('knows which drafts changed', () => {
    expect(isChanged(interval, draftOf(interval))).toBe(false);
    expect(isChanged(nap, { text: 'off', reset: false })).toBe(true);
    expect(isChanged(enabled, draftOf(enabled))).toBe(false);
    // A reset changes something only when the file holds a value.
    expect(isChanged(interval, { text: '10', reset: true })).toBe(false);
    expect(isChanged({ ...interval, source: 'settings', value: 20 }, { text: '20', reset: true })).toBe(true);
  });
});
