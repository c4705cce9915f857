import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadSettings } from './load-settings.js';
import { storedValueFor } from './settings-file.js';
import {
  applyUserTimeZone,
  canonicalTimeZone,
  explainTimeZone,
  isKnownTimeZone,
  resolveUserTimeZone,
  systemTimeZone,
  zoneOffsetMinutes,
} from './time-zone.js';

describe('the user time zone (issue 11)', () => {
  it('ROLE_TIMEZONE wins, then TZ (also as :Zone), then the machine’s zone', () => {
    const system = () => 'Europe/Berlin';
    expect(resolveUserTimeZone('Asia/Taipei', { TZ: 'America/Los_Angeles' }, system)).toEqual({ zone: 'Asia/Taipei', source: 'setting' });
    expect(resolveUserTimeZone(null, { TZ: 'America/Los_Angeles' }, system)).toEqual({ zone: 'America/Los_Angeles', source: 'TZ' });
    expect(resolveUserTimeZone(null, { TZ: ':Asia/Tokyo' }, system)).toEqual({ zone: 'Asia/Tokyo', source: 'TZ' });
    expect(resolveUserTimeZone(null, { TZ: 'Not/AZone' }, system)).toEqual({ zone: 'Europe/Berlin', source: 'system' });
    expect(resolveUserTimeZone('Mars/Olympus', {}, system)).toEqual({ zone: 'Europe/Berlin', source: 'system' });
  });

  it('an unknown zone name is a setting problem with what to do, and the default is used', () => {
    expect(isKnownTimeZone('Asia/Taipei')).toBe(true);
    expect(isKnownTimeZone('Asia/Taipie')).toBe(false);
    expect(explainTimeZone('Asia/Taipie')).toMatch(/"Asia\/Taipie" is not a time zone name .* such as Asia\/Taipei/);
    const loaded = loadSettings({ ROLE_TIMEZONE: 'Asia/Taipie' });
    expect(loaded.settings.ROLE_TIMEZONE).toBeNull();
    expect(loaded.problems.map((p) => p.name)).toEqual(['ROLE_TIMEZONE']);
    expect(loadSettings({}, { ROLE_TIMEZONE: 'Asia/Taipei' }).settings.ROLE_TIMEZONE).toBe('Asia/Taipei');
  });

  it('the quick answer (reading the clock in the zone) agrees with Intl, and leaves the clock as it was', () => {
    const intlKnows = (name: string) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: name });
        return true;
      } catch {
        return false;
      }
    };
    const names = [
      ...['Asia/Taipei', 'America/Los_Angeles', 'Europe/London', 'Asia/Kathmandu', 'America/Argentina/Buenos_Aires', 'US/Pacific'],
      ...[
        'Etc/GMT-8',
        'Etc/UTC',
        'Africa/Abidjan',
        'UTC',
        'GMT+8',
        'CST-8',
        'Asia/Taipie',
        'Mars/Olympus',
        'Asia/',
        '/Taipei',
        'asia/taipei',
      ],
    ];
    const tzBefore = process.env.TZ;
    const offsetBefore = new Date('2026-01-15T12:00:00Z').getTimezoneOffset();
    for (const name of names) expect(isKnownTimeZone(name), name).toBe(intlKnows(name));
    // Asked again (the verdict is kept): the same.
    expect(isKnownTimeZone(' Asia/Taipei ')).toBe(true);
    expect(process.env.TZ).toBe(tzBefore);
    expect(new Date('2026-01-15T12:00:00Z').getTimezoneOffset()).toBe(offsetBefore);
  });

  it('a zone the clock moves with is known without Intl (its first use in a process is 12–17 ms)', () => {
    const Original = Intl.DateTimeFormat;
    // Counting calls, still answering as Intl does (a bare spy's instances have no resolvedOptions).
    const spy = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (...args: ConstructorParameters<typeof Original>) {
      return new Original(...args);
    } as never);
    try {
      expect(isKnownTimeZone('Asia/Tokyo')).toBe(true);
      expect(isKnownTimeZone('America/Sao_Paulo')).toBe(true);
      expect(spy).not.toHaveBeenCalled();
      expect(isKnownTimeZone('Atlantic/Reykjavik')).toBe(true); // UTC all year: Intl decides
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('applying the setting moves the clock of the environment it is given, and only with a known zone', () => {
    const env: NodeJS.ProcessEnv = { TZ: 'UTC' };
    applyUserTimeZone('Asia/Kathmandu', env);
    expect(env.TZ).toBe('Asia/Kathmandu');
    applyUserTimeZone('Nowhere/Else', env);
    applyUserTimeZone(null, env);
    expect(env.TZ).toBe('Asia/Kathmandu');
  });

  it('a zone name in another letter case is used in ICU’s spelling, the one the clock reads in', () => {
    expect(canonicalTimeZone('asia/taipei')).toBe('Asia/Taipei');
    expect(canonicalTimeZone(' AMERICA/LOS_ANGELES ')).toBe('America/Los_Angeles');
    expect(canonicalTimeZone('Asia/Taipei')).toBe('Asia/Taipei');
    expect(canonicalTimeZone('Asia/Taipie')).toBeUndefined();
    // The setting as every reader sees it, and as the settings page stores it.
    const loaded = loadSettings({ ROLE_TIMEZONE: 'asia/taipei' });
    expect([loaded.settings.ROLE_TIMEZONE, loaded.problems]).toEqual(['Asia/Taipei', []]);
    expect(storedValueFor('ROLE_TIMEZONE', 'asia/tokyo')).toEqual({ ok: true, value: 'Asia/Tokyo' });
    expect(resolveUserTimeZone('asia/taipei', {}, () => 'UTC')).toEqual({ zone: 'Asia/Taipei', source: 'setting' });
    const env: NodeJS.ProcessEnv = {};
    applyUserTimeZone('asia/taipei', env);
    expect(env.TZ).toBe('Asia/Taipei');
    // And the clock does read in the name applied (asia/taipei itself read UTC).
    const before = process.env.TZ;
    try {
      process.env.TZ = env.TZ;
      expect(new Date('2026-01-15T12:00:00Z').getTimezoneOffset()).toBe(-480);
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it('offsets, with DST and half/quarter hours', () => {
    const winter = new Date('2026-01-15T12:00:00Z');
    const summer = new Date('2026-07-15T12:00:00Z');
    expect(zoneOffsetMinutes('Asia/Taipei', winter)).toBe(480);
    expect(zoneOffsetMinutes('America/Los_Angeles', winter)).toBe(-480);
    expect(zoneOffsetMinutes('America/Los_Angeles', summer)).toBe(-420);
    expect(zoneOffsetMinutes('Asia/Kathmandu', winter)).toBe(345);
    expect(zoneOffsetMinutes('Pacific/Kiritimati', winter)).toBe(840);
    expect(zoneOffsetMinutes('UTC', summer)).toBe(0);
  });

  it('the machine’s zone: /etc/timezone, else the /etc/localtime link, else UTC', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-tz-'));
    try {
      const timezone = path.join(dir, 'timezone');
      const localtime = path.join(dir, 'localtime');
      expect(systemTimeZone({ timezone, localtime })).toBe('UTC');
      fs.symlinkSync('/usr/share/zoneinfo/posix/Asia/Tokyo', localtime);
      expect(systemTimeZone({ timezone, localtime })).toBe('Asia/Tokyo');
      fs.writeFileSync(timezone, 'America/Chicago\n');
      expect(systemTimeZone({ timezone, localtime })).toBe('America/Chicago');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
