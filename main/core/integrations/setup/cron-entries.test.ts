import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config/config.js';
import { zoneOffsetMinutes } from '../../platform/config/time-zone.js';
import {
  briefSchedule,
  cronEnvironment,
  cronMinuteFor,
  formatCronLine,
  parseKiokuCronEntries,
  parseKiokuCronLine,
  planCronEntries,
  replaceKiokuLines,
  sleepCheckSchedule,
} from './cron-entries.js';

const config = (env: NodeJS.ProcessEnv = {}) =>
  loadConfig({ HOME: '/home/u', ROLE_HOME: '/home/u/.roles', ROLE_MEMORY_HOME: '/home/u/.memory', ...env }, { stored: {} });

// A winter day and a summer day: DST moves offsets by whole hours, which the minute ignores.
const WINTER = new Date('2026-01-15T12:00:00Z');
const SUMMER = new Date('2026-07-15T12:00:00Z');
const zones = (user: string, cron: string, at = WINTER) => ({ user, cron, at });

describe("schedules (hourly in cron's zone; the command decides on the user's clock)", () => {
  it.each([
    ['22:00', '06:00', 'Asia/Taipei', 'UTC', '0 * * * *'],
    ['23:30', '01:30', 'Asia/Taipei', 'UTC', '30 * * * *'],
    ['22:00', '06:00', 'Asia/Kolkata', 'UTC', '30 * * * *'],
    ['22:00', '06:00', 'Asia/Kathmandu', 'UTC', '15 * * * *'],
    ['22:00', '06:00', 'UTC', 'Asia/Kolkata', '30 * * * *'],
    ['22:15', '06:00', 'America/St_Johns', 'Asia/Taipei', '45 * * * *'],
  ])('the sleep check for %s–%s in %s under a cron in %s', (start, end, user, cron, expected) => {
    expect(sleepCheckSchedule(start, end, zones(user, cron))).toBe(expected);
    expect(sleepCheckSchedule(start, end, zones(user, cron, SUMMER))).toBe(expected);
  });

  it('cronMinuteFor: the same instant on both clocks', () => {
    for (const [user, cron] of [
      ['Asia/Kathmandu', 'UTC'],
      ['America/St_Johns', 'Asia/Taipei'],
      ['Australia/Adelaide', 'America/Los_Angeles'],
    ] as const) {
      for (let minute = 0; minute < 60; minute += 7) {
        const m = cronMinuteFor(minute, zones(user, cron));
        // An instant at which cron's clock shows minute m: the user's clock must show `minute`.
        const instant = new Date(Date.UTC(2026, 0, 15, 3, 0) + ((m - zoneOffsetMinutes(cron, WINTER)) % 60) * 60_000);
        const userMinute = (((instant.getUTCMinutes() + zoneOffsetMinutes(user, WINTER)) % 60) + 60) % 60;
        expect(userMinute, `${user} vs ${cron}, minute ${minute}`).toBe(minute);
      }
    }
  });

  it('no window (start == end) schedules no sleep check and no brief', () => {
    expect(sleepCheckSchedule('06:00', '06:00', zones('UTC', 'UTC'))).toBeUndefined();
    expect(briefSchedule('06:00', '06:00', zones('UTC', 'UTC'))).toBeUndefined();
  });

  it("the brief check fires hourly at the minute the window ends on the user's clock", () => {
    expect(briefSchedule('22:00', '06:00', zones('Asia/Taipei', 'UTC'))).toBe('0 * * * *');
    expect(briefSchedule('23:00', '07:15', zones('Asia/Taipei', 'UTC'))).toBe('15 * * * *');
    expect(briefSchedule('23:00', '07:15', zones('Asia/Kolkata', 'UTC'))).toBe('45 * * * *');
  });

  it('plans sleep, nap (when on) and brief --scheduled (only with a checks folder, when on)', () => {
    const kinds = (env: NodeJS.ProcessEnv, hasChecks: boolean) =>
      planCronEntries(config(env), { hasChecks, zones: zones('Asia/Taipei', 'UTC') }).map(
        (e) => `${e.kind}: ${e.schedule} ${e.args.join(' ')}`,
      );
    expect(kinds({}, true)).toEqual(['sleep: 0 * * * * sleep', 'nap: */10 * * * * nap', 'brief: 0 * * * * brief --scheduled --all']);
    expect(kinds({}, false)).toEqual(['sleep: 0 * * * * sleep', 'nap: */10 * * * * nap']);
    expect(kinds({ ROLE_NAP_ENABLED: '0', ROLE_BRIEF_ENABLED: '0' }, true)).toEqual(['sleep: 0 * * * * sleep']);
    expect(kinds({ ROLE_NAP_INTERVAL_MINUTES: '15', ROLE_SLEEP_ALL_ROLES: '0' }, true)).toEqual([
      'sleep: 0 * * * * sleep',
      'nap: */15 * * * * nap',
      'brief: 0 * * * * brief --scheduled',
    ]);
  });
});

describe('the environment of a line', () => {
  it('multi-role: ROLE_SLEEP_ALL_ROLES=1 and never ROLE_NAME (§排程涵蓋所有角色), explicit ROLE_* only, never KIOKU_NOW', () => {
    const env = cronEnvironment(
      config({
        ROLE_NAME: 'ACTIVE01',
        ROLE_CLI: 'local',
        ROLE_LOAD_LIMIT: '5000',
        KIOKU_NOW: '2026-01-01T00:00:00Z',
        UNRELATED: 'x',
        TZ: 'Asia/Taipei',
      }),
      ['/usr/bin', '/bin', '/usr/bin'],
      'ACTIVE01',
      'Asia/Taipei',
    );
    expect(env).toEqual([
      ['PATH', '/usr/bin:/bin'],
      ['TZ', 'Asia/Taipei'],
      ['ROLE_HOME', '/home/u/.roles'],
      ['ROLE_MEMORY_HOME', '/home/u/.memory'],
      ['ROLE_SLEEP_ALL_ROLES', '1'],
      ['ROLE_CLI', 'local'],
      ['ROLE_LOAD_LIMIT', '5000'],
    ]);
  });

  it('single role: ROLE_SLEEP_ALL_ROLES=0 and the role pinned', () => {
    const env = cronEnvironment(config({ ROLE_SLEEP_ALL_ROLES: '0' }), ['/bin'], 'ONLY01', 'UTC');
    expect(env).toContainEqual(['ROLE_SLEEP_ALL_ROLES', '0']);
    expect(env).toContainEqual(['ROLE_NAME', 'ONLY01']);
  });

  it('refuses a value with a line break', () => {
    expect(() => cronEnvironment(config({ ROLE_SCOPE: 'a\nb' }), ['/bin'], undefined, 'UTC')).toThrow(/ROLE_SCOPE contains a line break/);
  });
});

describe('lines', () => {
  const entry = { kind: 'sleep' as const, schedule: '0 22-23,0-5 * * *', args: ['sleep'] };

  it('quote for the shell, escape % for cron, and read back the same', () => {
    const env: [string, string][] = [
      ['PATH', '/usr/bin:/bin'],
      ['ROLE_HOME', "/home/u/my roles/it's"],
      ['ROLE_SCOPE', '/work/100%'],
    ];
    const line = formatCronLine(entry, env, '/home/u/.memory/.kioku/bin/kioku-launch');
    expect(line).toBe(
      "0 22-23,0-5 * * * PATH=/usr/bin:/bin ROLE_HOME='/home/u/my roles/it'\\''s' ROLE_SCOPE='/work/100\\%' /home/u/.memory/.kioku/bin/kioku-launch --cron sleep # kioku:sleep",
    );
    expect(parseKiokuCronLine(line)).toEqual({
      kind: 'sleep',
      line,
      schedule: '0 22-23,0-5 * * *',
      env: { PATH: '/usr/bin:/bin', ROLE_HOME: "/home/u/my roles/it's", ROLE_SCOPE: '/work/100%' },
      program: '/home/u/.memory/.kioku/bin/kioku-launch',
      args: ['sleep'],
      disabled: false,
    });
  });

  it('only tagged lines are ours; a commented-out one is read as disabled', () => {
    const text = [
      'MAILTO=me',
      '0 * * * * backup.sh # nightly',
      '#0 6 * * * /x/kioku-launch --cron brief --all # kioku:brief',
      '*/10 * * * * /x/kioku-launch --cron nap # kioku:nap',
      '',
    ].join('\n');
    expect(parseKiokuCronEntries(text).map((e) => [e.kind, e.disabled, e.args.join(' ')])).toEqual([
      ['brief', true, 'brief --all'],
      ['nap', false, 'nap'],
    ]);
  });
});

describe('replaceKiokuLines', () => {
  const user = ['# my jobs', 'MAILTO=""', '15 3 * * * /usr/bin/backup   --fast  # keep   spacing', '@reboot /opt/start.sh'];

  it('adds ours at the end and keeps every other line byte for byte', () => {
    const current = `${user.join('\n')}\n`;
    const next = replaceKiokuLines(current, ['0 22 * * * x # kioku:sleep']);
    expect(next).toBe(`${current}0 22 * * * x # kioku:sleep\n`);
  });

  it('replaces ours in place, leaves the rest, and is a no-op the second time', () => {
    const current = [user[0], '0 23 * * * old # kioku:sleep', user[1], '*/5 * * * * old # kioku:nap', user[2], user[3]].join('\n');
    const next = replaceKiokuLines(current, ['0 22 * * * new # kioku:sleep', '*/10 * * * * new # kioku:nap']);
    expect(next).toBe([user[0], '0 22 * * * new # kioku:sleep', '*/10 * * * * new # kioku:nap', user[1], user[2], user[3], ''].join('\n'));
    expect(replaceKiokuLines(next, ['0 22 * * * new # kioku:sleep', '*/10 * * * * new # kioku:nap'])).toBe(next);
  });

  it("removes ours (and, when asked, the original scripts' # jsc-role-sleep lines) only", () => {
    const current = [user[0], '0 * * * * /old/role_sleep_launcher.sh # jsc-role-sleep', '0 22 * * * x # kioku:sleep', user[2], ''].join(
      '\n',
    );
    expect(replaceKiokuLines(current, [])).toBe(
      [user[0], '0 * * * * /old/role_sleep_launcher.sh # jsc-role-sleep', user[2], ''].join('\n'),
    );
    expect(replaceKiokuLines(current, [], { dropLegacy: true })).toBe([user[0], user[2], ''].join('\n'));
    expect(replaceKiokuLines('0 22 * * * x # kioku:sleep\n', [])).toBe('');
  });
});
