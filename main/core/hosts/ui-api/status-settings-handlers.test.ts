import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DiagnoseView, SettingsView, StatusReportView } from '../../../../common/ui-contract.js';
import { writeMemoryFixture } from '../../../../test/helpers/memory-fixtures.js';
import { bytesOf, startTestApi, writeFile, type TestApi } from '../../../../test/helpers/web-api.js';
import { installHooks } from '../../integrations/setup/hooks-install.js';
import { SPOOL_FAILED, spoolFileName, writeSpoolRecord } from '../../platform/ipc/spool-writer.js';
import type { StatusProbes } from './status-handlers.js';

let api: TestApi | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

/** No crontab lines and no processes unless a test says otherwise: the answer must not depend on this machine. */
const quietMachine: StatusProbes = { readCrontab: async () => ({ available: true, text: '' }), listProcesses: () => [], cwd: () => '/tmp' };

async function start(options: { env?: NodeJS.ProcessEnv; probes?: StatusProbes } = {}): Promise<TestApi> {
  api = await startTestApi({ env: options.env, deps: { statusProbes: options.probes ?? quietMachine } });
  return api;
}

const ROLE = { name: '小豹', nature: '冷靜可靠的工程師', vibe: '簡潔直白', emoji: '🐆', prefix: 'ENGINEER' };

function writeConsolidated(memoryHome: string, count: number, type = 'semantic'): void {
  for (let n = 0; n < count; n++) {
    writeMemoryFixture(memoryHome, 'ENGINEER01', n % 2 ? 'important' : 'skill', `m-${type}-${n}`, {
      summary: `記憶 ${n}`,
      memory_type: type,
      created: '2026-03-01T10:00:00+08:00',
    });
  }
}

describe('status.get / status.diagnose (OPS-1)', () => {
  it('reports the roles with memory counts by category and type, and warns when emotional stays 0', async () => {
    const { value, home } = await start();
    await value('roles.create', { input: ROLE });
    writeConsolidated(home.memoryHome, 10);
    writeMemoryFixture(home.memoryHome, 'ENGINEER01', 'inbox', 'i-1', {
      summary: '待整理',
      memory_type: 'episodic',
      created: '2026-03-04T09:00:00+08:00',
    });
    const report = await value<StatusReportView>('status.get', {});
    expect(report.activeRole).toBe('ENGINEER01');
    expect(report.daemon).toMatchObject({ running: true, pid: 42, version: 'test', scheduler: false });
    const role = report.roles.find((r) => r.id === 'ENGINEER01')!;
    expect(role).toMatchObject({
      name: '小豹',
      emoji: '🐆',
      active: true,
      inbox: 1,
      memory: { total: 11, categories: { important: 5, skill: 5, inbox: 1 }, types: { semantic: 10, emotional: 0 } },
    });
    expect(role.clarity.clear + role.clarity.faded + role.clarity.fuzzy).toBe(10);
    expect(role.warnings.join('\n')).toContain('no emotional memories');

    const { checks, failed } = await value<DiagnoseView>('status.diagnose', {});
    expect(checks[0]).toMatchObject({ area: 'role', code: 'role.ok', mark: 'ok', params: { role: 'ENGINEER01', source: '.active' } });
    expect(checks).toContainEqual(expect.objectContaining({ code: 'hooks.none', mark: 'fail' }));
    expect(checks).toContainEqual(expect.objectContaining({ code: 'schedule.none', mark: 'fail' }));
    expect(checks).toContainEqual(
      expect.objectContaining({ code: 'memory.warning', params: expect.objectContaining({ role: 'ENGINEER01' }) }),
    );
    expect(failed).toBe(checks.filter((c) => c.mark === 'fail').length);
  });

  it('says when no role resolves, and when a crontab line points at a launcher that is gone', async () => {
    const missing = '/nonexistent/kioku-launcher';
    const { value } = await start({
      probes: {
        ...quietMachine,
        readCrontab: async () => ({ available: true, text: `*/10 * * * * ${missing} sleep-check # kioku:sleep\n` }),
      },
    });
    const { checks } = await value<DiagnoseView>('status.diagnose', {});
    expect(checks[0]).toMatchObject({ code: 'role.none', mark: 'fail' });
    const report = await value<StatusReportView>('status.get', {});
    expect(report.schedule.cron.entries).toEqual([expect.objectContaining({ kind: 'sleep', program: missing, programExists: false })]);
    expect(checks).toContainEqual(
      expect.objectContaining({ code: 'target.missing', mark: 'fail', params: { kind: 'sleep', program: missing } }),
    );
  });

  it('shows the capture backlog (issue 13): the spool field, and diagnose rows in codes the page words', async () => {
    const { value, home } = await start();
    const spoolDir = path.join(home.memoryHome, '.kioku', 'spool');
    expect((await value<StatusReportView>('status.get', {})).spool).toEqual({ count: 0, oldest: null, oldestAgeMinutes: null, failed: 0 });
    const at = new Date(Date.parse('2026-03-04T10:00:00+08:00') - 90 * 60_000); // the test API's frozen clock, less 90 min
    writeSpoolRecord(spoolDir, { eventId: 'ev-1', assistant: 'claude', event: 'stop', payload: {}, env: {} }, 'hook', at);
    fs.mkdirSync(path.join(spoolDir, SPOOL_FAILED), { recursive: true });
    fs.writeFileSync(path.join(spoolDir, SPOOL_FAILED, spoolFileName()), '{}');
    const report = await value<StatusReportView>('status.get', {});
    expect(report.spool).toMatchObject({ count: 1, oldestAgeMinutes: 90, failed: 1 });
    const { checks } = await value<DiagnoseView>('status.diagnose', {});
    // The host is the daemon, which takes them in: information, not a failure.
    expect(checks).toContainEqual(
      expect.objectContaining({
        area: 'spool',
        code: 'spool.draining',
        mark: 'info',
        params: expect.objectContaining({ count: 1, age: 90 }),
      }),
    );
    expect(checks).toContainEqual(expect.objectContaining({ area: 'spool', code: 'spool.failed', mark: 'fail', params: { count: 1 } }));
    expect(checks.filter((c) => c.code === 'spool.waiting')).toEqual([]);
  });

  it('says Codex hooks that are not trusted in /hooks, in a code the page words (issue 13)', async () => {
    const { value, home } = await start();
    installHooks(['codex'], { env: home.env, clientPath: path.join(home.root, 'kioku-hook.js'), execPath: '/usr/bin/node' });
    const report = await value<StatusReportView>('status.get', {});
    expect(report.hooks.find((h) => h.assistant === 'codex')?.trust).toMatchObject({
      configFile: path.join(home.root, '.codex', 'config.toml'),
      trusted: 0,
      modified: [],
      disabled: [],
    });
    const { checks } = await value<DiagnoseView>('status.diagnose', {});
    expect(checks).toContainEqual(
      expect.objectContaining({
        area: 'hooks',
        code: 'hooks.codexUntrusted',
        mark: 'fail',
        params: expect.objectContaining({ file: path.join(home.root, '.codex', 'config.toml') }),
      }),
    );
  });

  it('reads the settings fresh: a sleep window saved on the settings page shows at once', async () => {
    const { value } = await start();
    expect((await value<StatusReportView>('status.get', {})).sleepWindow).toMatchObject({ start: '22:00', end: '06:00' });
    await value('settings.update', { values: { ROLE_SLEEP_START: '00:00', ROLE_SLEEP_END: '23:59' } });
    const report = await value<StatusReportView>('status.get', {});
    expect(report.sleepWindow).toMatchObject({ start: '00:00', end: '23:59' });
  });
});

describe('settings.get / settings.update (APP-4)', () => {
  it('lists every setting with its value, default, source and whether the page may change it', async () => {
    const { value } = await start({ env: { ROLE_LOAD_LIMIT: '5000' } });
    const view = await value<SettingsView>('settings.get', {});
    const byName = new Map(view.settings.map((s) => [s.name, s]));
    expect(byName.get('ROLE_LOAD_LIMIT')).toMatchObject({
      kind: 'int',
      group: 'load',
      value: 5000,
      default: 4000,
      source: 'env',
      editable: false,
      readOnly: 'env',
      min: 0,
    });
    expect(byName.get('ROLE_NAP_INTERVAL_MINUTES')).toMatchObject({
      group: 'nap',
      value: 10,
      source: 'default',
      editable: true,
      min: 1,
      max: 59,
    });
    expect(byName.get('ROLE_SLEEP_START')).toMatchObject({ kind: 'time', group: 'sleep', value: '22:00' });
    expect(byName.get('ROLE_CLI')).toMatchObject({ kind: 'string', choices: expect.arrayContaining(['auto', 'local']) });
    expect(byName.get('ROLE_HOME')).toMatchObject({ editable: false, readOnly: 'fixed', group: 'fixed' });
    expect(view.settings.length).toBeGreaterThan(40);
    expect(view.file.endsWith(path.join('.kioku', 'settings.json'))).toBe(true);
  });

  it('saves checked values to settings.json, keeping the keys it does not know', async () => {
    const { value, home } = await start();
    const file = path.join(home.memoryHome, '.kioku', 'settings.json');
    writeFile(file, JSON.stringify({ app: { schedulePaused: true }, ROLE_BRIEF_LIMIT: 1500 }));
    const view = await value<SettingsView>('settings.update', {
      values: { ROLE_NAP_IDLE_MINUTES: 30, ROLE_NAP_ENABLED: false, ROLE_SLEEP_START: '1:30', ROLE_CLI: 'local' },
    });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      app: { schedulePaused: true },
      ROLE_BRIEF_LIMIT: 1500,
      ROLE_NAP_IDLE_MINUTES: 30,
      ROLE_NAP_ENABLED: false,
      ROLE_SLEEP_START: '01:30',
      ROLE_CLI: 'local',
    });
    const nap = view.settings.find((s) => s.name === 'ROLE_NAP_IDLE_MINUTES');
    expect(nap).toMatchObject({ value: 30, source: 'settings' });
    // null: back to the default (the key leaves the file).
    await value('settings.update', { values: { ROLE_NAP_IDLE_MINUTES: null } });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).not.toHaveProperty('ROLE_NAP_IDLE_MINUTES');
  });

  it('refuses values the readers would ignore, environment-set and fixed settings — writing nothing', async () => {
    const { call, home } = await start({ env: { ROLE_LOAD_LIMIT: '5000' } });
    const file = path.join(home.memoryHome, '.kioku', 'settings.json');
    writeFile(file, '{"ROLE_NAP_MIN_INBOX": 4}\n');
    const before = bytesOf(file);
    const tooBig = await call('settings.update', { values: { ROLE_NAP_INTERVAL_MINUTES: 60, ROLE_NAP_MIN_INBOX: 5 } });
    expect(tooBig).toMatchObject({ ok: false, error: { code: 'BAD_USAGE' } });
    if (!tooBig.ok) expect(tooBig.error.message).toContain('ROLE_NAP_INTERVAL_MINUTES=60: expected at most 59');
    expect(await call('settings.update', { values: { ROLE_SLEEP_START: '25:00' } })).toMatchObject({
      ok: false,
      error: { code: 'BAD_USAGE' },
    });
    expect(await call('settings.update', { values: { ROLE_CLI: 'vim' } })).toMatchObject({ ok: false, error: { code: 'BAD_USAGE' } });
    expect(await call('settings.update', { values: { ROLE_LOAD_LIMIT: 100 } })).toMatchObject({ ok: false, error: { code: 'REFUSED' } });
    expect(await call('settings.update', { values: { ROLE_HOME: '/elsewhere' } })).toMatchObject({ ok: false, error: { code: 'REFUSED' } });
    expect(await call('settings.update', { values: { NOT_A_SETTING: 1 } })).toMatchObject({ ok: false, error: { code: 'REFUSED' } });
    expect(bytesOf(file)).toBe(before);
  });

  it('never replaces a settings file that is not JSON', async () => {
    const { call, value, home } = await start();
    const file = path.join(home.memoryHome, '.kioku', 'settings.json');
    writeFile(file, '{ broken');
    expect((await value<SettingsView>('settings.get', {})).fileProblem).toContain('not valid JSON');
    expect(await call('settings.update', { values: { ROLE_NAP_MIN_INBOX: 5 } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_FILE' },
    });
    expect(fs.readFileSync(file, 'utf8')).toBe('{ broken');
  });
});
