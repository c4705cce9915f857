import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KiokuError } from '../../../../common/errors.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { parseKiokuCronEntries } from './cron-entries.js';
import { installCron, readKiokuCronEntries, removeCron, systemCrontab, type CronDeps, type CrontabRunner } from './cron-install.js';
import { cronLogPath, installRecordPath, launcherPath, LAUNCHER_SCRIPT } from './cron-launcher.js';

const USER_LINES = '# my own jobs\nMAILTO=""\n15 3 * * *   /usr/bin/backup --fast   # keep my spacing\n@reboot /opt/start.sh\n';

let home: TempHome;
let fakeEntry: string;
let calls: string;

/** A crontab in memory: what `crontab -l` answers and every text given to `crontab -`. */
function fakeCrontab(initial = '') {
  const state = { text: initial, writes: [] as string[] };
  const runner: CrontabRunner = {
    read: () => state.text,
    write: (text) => {
      state.text = text;
      state.writes.push(text);
    },
  };
  return { state, runner };
}

beforeEach(() => {
  home = makeTempHome();
  // Stands in for bin/kioku.js: records its arguments and the variables cron gave it.
  calls = path.join(home.root, 'calls.jsonl');
  fakeEntry = path.join(home.root, 'fake-kioku.mjs');
  fs.writeFileSync(
    fakeEntry,
    `import fs from 'node:fs';\nconst pick = (k) => process.env[k];\nfs.appendFileSync(${JSON.stringify(calls)}, JSON.stringify({ args: process.argv.slice(2), all: pick('ROLE_SLEEP_ALL_ROLES'), name: pick('ROLE_NAME') ?? null, home: pick('ROLE_HOME'), path: pick('PATH') }) + '\\n');\nconsole.log('stdout is dropped');\nconsole.error('stderr goes to cron.log');\n`,
  );
});
afterEach(() => home.cleanup());

const deps = (runner: CrontabRunner, extra: Partial<CronDeps> = {}): CronDeps => ({
  runner,
  install: { node: process.execPath, entry: fakeEntry },
  serviceRunning: () => true,
  cronZone: 'UTC',
  ...extra,
});

function makeRole(id: string, withChecks = false): void {
  fs.writeFileSync(path.join(home.roleHome, `${id}.identity.md`), `---\nid: ${id}\nname: ${id}\nemoji: 🧪\n---\n`);
  if (withChecks) fs.mkdirSync(path.join(home.roleHome, `${id}.checks`));
}

/** Run a crontab line's command the way cron does: `\%` → `%`, then /bin/sh -c, with no environment. */
function runLikeCron(line: string): number {
  const command = line.replace(/^(\S+\s+){5}/, '').replace(/\\%/g, '%');
  const result = spawnSync('/bin/sh', ['-c', command], {
    env: { HOME: home.root },
    encoding: 'utf8',
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  return result.status ?? -1;
}

const readCalls = () =>
  fs
    .readFileSync(calls, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { args: string[]; all: string; name: string | null; home: string; path: string });

describe('install-cron', () => {
  it("adds the tagged entries through the launcher, keeps the user's lines byte for byte, and is idempotent", () => {
    makeRole('ALPHA01', true);
    const { state, runner } = fakeCrontab(USER_LINES);
    const result = installCron(home.config(), deps(runner));
    expect(result.changed).toBe(true);
    expect(state.text.startsWith(USER_LINES)).toBe(true);
    const ours = parseKiokuCronEntries(state.text);
    expect(ours.map((e) => [e.kind, e.schedule, e.args.join(' ')])).toEqual([
      ['sleep', '0 * * * *', 'sleep'],
      ['nap', '*/10 * * * *', 'nap'],
      ['brief', '0 * * * *', 'brief --scheduled --all'],
    ]);
    const launcher = launcherPath(home.config().paths.stateDir);
    for (const entry of ours) {
      expect(entry.program).toBe(launcher);
      expect(entry.env).toMatchObject({
        ROLE_SLEEP_ALL_ROLES: '1',
        ROLE_HOME: home.roleHome,
        ROLE_MEMORY_HOME: home.memoryHome,
        TZ: process.env.TZ,
      });
      expect(entry.env.ROLE_NAME).toBeUndefined();
      expect(entry.env.PATH!.split(':')).toEqual(expect.arrayContaining(['/usr/bin', '/bin', path.dirname(process.execPath)]));
      expect(entry.env.PATH).not.toBe(process.env.PATH);
    }
    expect(fs.readFileSync(launcher, 'utf8')).toBe(LAUNCHER_SCRIPT);
    expect(fs.statSync(launcher).mode & 0o111).not.toBe(0);
    expect(result.briefRoles).toEqual(['ALPHA01']);

    const again = installCron(home.config(), deps(runner));
    expect(again.changed).toBe(false);
    expect(state.writes).toHaveLength(1);
    expect(readKiokuCronEntries(runner)).toEqual(ours);
  });

  it('replaces its own lines when the settings change, never adding a second set', () => {
    const { state, runner } = fakeCrontab(USER_LINES);
    installCron(home.config(), deps(runner));
    installCron(home.config({ ROLE_NAP_INTERVAL_MINUTES: '20', ROLE_SLEEP_START: '23:30', ROLE_LOAD_LIMIT: '6000' }), deps(runner));
    const ours = parseKiokuCronEntries(state.text);
    expect(ours.map((e) => `${e.kind} ${e.schedule}`)).toEqual(['sleep 30 * * * *', 'nap */20 * * * *']);
    expect(ours[0]?.env.ROLE_LOAD_LIMIT).toBe('6000');
    expect(
      state.text
        .split('\n')
        .filter((line) => !/# kioku:/.test(line))
        .join('\n'),
    ).toBe(USER_LINES.slice(0, -1) + '\n');
  });

  it('schedules no brief without a checks folder, and says so', () => {
    makeRole('ALPHA01');
    const { state, runner } = fakeCrontab();
    const result = installCron(home.config(), deps(runner));
    expect(parseKiokuCronEntries(state.text).map((e) => e.kind)).toEqual(['sleep', 'nap']);
    expect(result.warnings.join('\n')).toMatch(/no role has a .*<ID>\.checks\/ folder, so no morning brief was scheduled/);
  });

  it('single-role mode pins the role (ROLE_SLEEP_ALL_ROLES=0), and refuses when there is none', () => {
    makeRole('ALPHA01', true);
    const { state, runner } = fakeCrontab();
    expect(() => installCron(home.config({ ROLE_SLEEP_ALL_ROLES: '0' }), deps(runner))).toThrow(
      /ROLE_SLEEP_ALL_ROLES=0 schedules one role/,
    );
    expect(state.writes).toEqual([]);
    fs.writeFileSync(path.join(home.roleHome, '.active'), 'ALPHA01\n');
    installCron(home.config({ ROLE_SLEEP_ALL_ROLES: '0' }), deps(runner));
    const ours = parseKiokuCronEntries(state.text);
    expect(ours.every((e) => e.env.ROLE_NAME === 'ALPHA01' && e.env.ROLE_SLEEP_ALL_ROLES === '0')).toBe(true);
    expect(ours.find((e) => e.kind === 'brief')?.args).toEqual(['brief', '--scheduled']);
  });

  it("warns about the original scripts' lines and a stopped cron service, without touching them", () => {
    const legacy = '0 * * * * ROLE_NAME=YUI01 /home/u/.roles/bin/role_sleep_launcher.sh # jsc-role-sleep';
    const { state, runner } = fakeCrontab(`${legacy}\n`);
    const result = installCron(home.config(), deps(runner, { serviceRunning: () => false }));
    expect(state.text.startsWith(`${legacy}\n`)).toBe(true);
    expect(result.legacyLines).toEqual([legacy]);
    expect(result.warnings.join('\n')).toMatch(/remove-cron --legacy/);
    expect(result.warnings.join('\n')).toMatch(/no cron service is running/);
  });

  it('--dry-run writes nothing: neither the crontab nor the launcher', () => {
    const { state, runner } = fakeCrontab(USER_LINES);
    const result = installCron(home.config(), deps(runner), { dryRun: true });
    expect(result.entries.length).toBe(2);
    expect(state.writes).toEqual([]);
    expect(fs.existsSync(result.launcher)).toBe(false);
  });
});

describe('remove-cron', () => {
  it('removes only the tagged lines and the launcher; with --legacy also # jsc-role-sleep lines', () => {
    const legacy = '0 * * * * /home/u/.roles/bin/role_sleep_launcher.sh # jsc-role-sleep';
    const { state, runner } = fakeCrontab(`${USER_LINES}${legacy}\n`);
    installCron(home.config(), deps(runner));
    const stateDir = home.config().paths.stateDir;
    const removed = removeCron(home.config(), deps(runner));
    expect(removed).toEqual({ removed: 2, legacyRemoved: 0, launcherRemoved: true });
    expect(state.text).toBe(`${USER_LINES}${legacy}\n`);
    expect(fs.existsSync(launcherPath(stateDir))).toBe(false);
    expect(fs.existsSync(installRecordPath(stateDir))).toBe(false);
    expect(removeCron(home.config(), deps(runner), { legacy: true })).toEqual({ removed: 0, legacyRemoved: 1, launcherRemoved: false });
    expect(state.text).toBe(USER_LINES);
  });
});

describe('the crontab command', () => {
  it('missing: a clear error saying what to install', () => {
    const empty = path.join(home.root, 'empty-bin');
    fs.mkdirSync(empty);
    let error: unknown;
    try {
      systemCrontab({ PATH: empty }).read();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(KiokuError);
    expect((error as KiokuError).message).toMatch(/crontab command was not found/);
    expect((error as KiokuError).hint).toMatch(/apt-get install cron/);
  });

  it('"no crontab for user" reads as empty; the new text goes to `crontab -` on stdin', () => {
    const bin = path.join(home.root, 'fake-bin');
    fs.mkdirSync(bin);
    const store = path.join(home.root, 'crontab.txt');
    fs.writeFileSync(
      path.join(bin, 'crontab'),
      `#!/bin/sh\nif [ "$1" = "-l" ]; then [ -f "${store}" ] && exec cat "${store}"; echo "no crontab for tester" >&2; exit 1; fi\ncat > "${store}"\n`,
      { mode: 0o755 },
    );
    const runner = systemCrontab({ PATH: `${bin}:/usr/bin:/bin` });
    expect(runner.read()).toBe('');
    runner.write('0 1 * * * x # kioku:sleep\n');
    expect(runner.read()).toBe('0 1 * * * x # kioku:sleep\n');
  });
});

describe('the launcher (a fixed path; it finds the current install at each run)', () => {
  it('runs the recorded install with the arguments of the line, as cron would run the line', () => {
    makeRole('ALPHA01', true);
    const { state, runner } = fakeCrontab();
    installCron(home.config(), deps(runner));
    for (const entry of parseKiokuCronEntries(state.text)) expect(runLikeCron(entry.line)).toBe(0);
    const seen = readCalls();
    expect(seen.map((c) => c.args)).toEqual([['sleep'], ['nap'], ['brief', '--scheduled', '--all']]);
    expect(seen.every((c) => c.all === '1' && c.name === null && c.home === home.roleHome)).toBe(true);
    const log = fs.readFileSync(cronLogPath(home.config().paths.stateDir), 'utf8');
    expect(log.match(/stderr goes to cron\.log/g)).toHaveLength(3);
    expect(log).not.toContain('stdout is dropped');
  });

  it('falls back to kioku on PATH when the recorded install is gone, and says so in cron.log when nothing is found', () => {
    const { state, runner } = fakeCrontab();
    installCron(home.config(), deps(runner));
    fs.rmSync(fakeEntry);
    const [sleep] = parseKiokuCronEntries(state.text);
    const launcher = sleep!.program;
    const bin = path.join(home.root, 'other-bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'kioku'), `#!/bin/sh\necho "path kioku $*" >> "${calls}.path"\n`, { mode: 0o755 });
    const viaPath = spawnSync('/bin/sh', [launcher, '--cron', 'nap'], {
      env: { PATH: `${bin}:/usr/bin:/bin` },
      encoding: 'utf8',
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    expect(viaPath.status).toBe(0);
    expect(fs.readFileSync(`${calls}.path`, 'utf8')).toBe('path kioku nap\n');
    const nowhere = spawnSync('/bin/sh', [launcher, '--cron', 'sleep'], {
      env: { PATH: '/usr/bin:/bin' },
      encoding: 'utf8',
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    expect(nowhere.status).toBe(127);
    expect(fs.readFileSync(cronLogPath(home.config().paths.stateDir), 'utf8')).toMatch(
      /\[cron\]\[ERROR\]: kioku-launch: cannot find Kioku: .*fake-kioku\.mjs is gone/,
    );
  });
});
