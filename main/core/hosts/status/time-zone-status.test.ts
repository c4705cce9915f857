import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config/config.js';
import { timeZoneStatus } from './time-zone-status.js';

/** What `kioku status` / `diagnose` say about the clock (issue 11). */
const config = (env: NodeJS.ProcessEnv) =>
  loadConfig(
    { HOME: '/home/u', ROLE_HOME: '/home/u/.roles', ROLE_MEMORY_HOME: '/home/u/.memory', KIOKU_NOW: '2026-12-01T12:00:00Z', ...env },
    { stored: {} },
  );
const line = (schedule: string, tz?: string) =>
  `${schedule} PATH=/usr/bin${tz ? ` TZ=${tz}` : ''} /home/u/.memory/.kioku/bin/kioku-launch --cron sleep # kioku:sleep\n`;

describe('timeZoneStatus', () => {
  it('names the zone, its offset and where it came from; no problem when all agree', () => {
    const status = timeZoneStatus(config({ TZ: 'Asia/Taipei' }), { crontabText: line('0 * * * *', 'Asia/Taipei'), cronZone: 'UTC' });
    expect(status).toMatchObject({
      zone: 'Asia/Taipei',
      source: 'TZ',
      offset: '+08:00',
      setting: null,
      shellTz: 'Asia/Taipei',
      cronZone: 'UTC',
      problems: [],
    });
  });

  it('flags a shell TZ that differs from ROLE_TIMEZONE (the setting wins)', () => {
    const status = timeZoneStatus(config({ TZ: 'America/Los_Angeles', ROLE_TIMEZONE: 'Asia/Taipei' }), {
      crontabText: '',
      cronZone: 'UTC',
    });
    expect(status).toMatchObject({ zone: 'Asia/Taipei', source: 'setting' });
    expect(status.problems.map((p) => p.code)).toEqual(['zone.shellDiffers']);
    expect(status.warnings[0]).toMatch(/TZ=America\/Los_Angeles differs from ROLE_TIMEZONE=Asia\/Taipei; Kioku uses Asia\/Taipei/);
  });

  it('flags a TZ that is no zone name', () => {
    const status = timeZoneStatus(config({ TZ: 'CST-8' }), { crontabText: '', cronZone: 'Asia/Taipei' });
    expect(status).toMatchObject({ zone: 'Asia/Taipei', source: 'system' });
    expect(status.problems.map((p) => p.code)).toEqual(['zone.shellUnknown']);
  });

  it('flags old lines that fire at fixed hours on a cron clock that is not the user’s (the issue 11 failure)', () => {
    const status = timeZoneStatus(config({ TZ: 'Asia/Taipei' }), {
      crontabText: line('0 22-23,0-5 * * *', 'Asia/Taipei'),
      cronZone: 'UTC',
    });
    expect(status.problems).toEqual([
      expect.objectContaining({
        code: 'zone.cronLineHours',
        params: { kind: 'sleep', hours: '22-23,0-5', cronZone: 'UTC', zone: 'Asia/Taipei' },
      }),
    ]);
    // The same line is right when cron runs on the user's clock.
    expect(
      timeZoneStatus(config({ TZ: 'Asia/Taipei' }), { crontabText: line('0 22-23,0-5 * * *', 'Asia/Taipei'), cronZone: 'Asia/Taipei' })
        .problems,
    ).toEqual([]);
  });

  it('flags a line whose command runs in another zone than the user’s (TZ missing or different)', () => {
    const status = timeZoneStatus(config({ TZ: 'Asia/Taipei' }), { crontabText: line('0 * * * *'), cronZone: 'UTC' });
    expect(status.problems).toEqual([
      expect.objectContaining({ code: 'zone.cronLineZone', params: { kind: 'sleep', lineZone: 'UTC', zone: 'Asia/Taipei' } }),
    ]);
    const commented = timeZoneStatus(config({ TZ: 'Asia/Taipei' }), { crontabText: `# ${line('0 * * * *')}`, cronZone: 'UTC' });
    expect(commented.problems).toEqual([]);
  });
});
