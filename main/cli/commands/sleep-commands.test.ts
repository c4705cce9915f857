import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { KiokuError } from '../../../common/errors.js';
import { makeTempHome, snapshotTree, type TempHome } from '../../../test/helpers/temp-home.js';
import { ROLE, scriptedPlanner, writeInbox } from '../../../test/sleep/sleep-fixtures.js';
import type { Planner } from '../../core/engine/sleep/sleep-plan.js';
import type { CliContext } from '../cli-context.js';
import { memoriesFromFiles } from '../../core/hosts/hook-handlers/file-mode-memories.js';
import { createRole, planRoleChange } from '../../core/store/roles/role-editor.js';
import { readRoleDefinition } from '../../core/store/roles/role-repository.js';
import { registerNapCommands, registerSleepCommands, type SleepCommandDeps } from './sleep-commands.js';

const OTHER = 'OTHERS01';
let home: TempHome;
let out: string[];
let err: string[];

afterEach(() => {
  process.exitCode = undefined;
  home?.cleanup();
});

function context(env: NodeJS.ProcessEnv): () => CliContext {
  return () => ({
    config: home.config(env),
    logger: { log() {}, info() {}, warn() {}, error() {} },
    print: (text) => void out.push(text),
    printJson: (value) => void out.push(JSON.stringify(value)),
    note: (text) => void err.push(text),
    interactive: false,
  });
}

async function run(group: 'sleep' | 'nap', args: string[], env: NodeJS.ProcessEnv = {}, deps: SleepCommandDeps = {}): Promise<string> {
  const program = new Command('kioku').exitOverride();
  const command = program.command(group);
  (group === 'sleep' ? registerSleepCommands : registerNapCommands)(command, context(env), { assistantProcesses: () => [], ...deps });
  out = [];
  err = [];
  await program.parseAsync(['node', 'kioku', group, ...args]);
  return out.join('\n');
}

function setup(now: string): void {
  home = makeTempHome({ KIOKU_NOW: now, ROLE_CLI: 'local' });
  for (let n = 0; n < 3; n++) writeInbox(home.memoryHome, { id: `S${n}`, body: `第 ${n} 件事。記號-${n}。` });
  writeInbox(home.memoryHome, { id: 'O1', body: '另一個角色的事。記號-1。' }, OTHER);
}

const inboxOf = (role: string) => fs.readdirSync(path.join(home.memoryHome, role, 'inbox'));
const IN_WINDOW = '2026-11-30T03:00:00'; // local time, as the sleep window is
const AFTERNOON = '2026-11-30T14:00:00';

describe('kioku sleep', () => {
  it('outside the sleep window says the role is awake and changes nothing', async () => {
    setup(AFTERNOON);
    const before = snapshotTree(home.memoryHome);
    expect(await run('sleep', [])).toMatch(/^Awake: it is outside the sleep window \(22:00–06:00\)/);
    expect(JSON.parse(await run('sleep', ['--json']))).toEqual({ roles: [], awake: true });
    expect(snapshotTree(home.memoryHome)).toEqual(before);
  });

  it('inside the window it does not sleep while an assistant runs', async () => {
    setup(IN_WINDOW);
    const text = await run('sleep', [], {}, { planner: scriptedPlanner(), assistantProcesses: () => ['claude (pid 42)'] });
    expect(text).toMatch(/Not sleeping: an AI assistant is running \(claude \(pid 42\)\)/);
    expect(inboxOf(ROLE)).toHaveLength(3);
  });

  it('inside the window consolidates every role in turn (SLEEP-3) and prints the CLI.md shape', async () => {
    setup(IN_WINDOW);
    const result = JSON.parse(await run('sleep', ['--json'], {}, { planner: scriptedPlanner() })) as { roles: Record<string, unknown>[] };
    expect(result.roles.map((r) => r.id)).toEqual([OTHER, ROLE]);
    for (const role of result.roles) {
      for (const key of ['id', 'ok', 'processed', 'created', 'merged', 'discarded', 'forgotten', 'left']) expect(role).toHaveProperty(key);
    }
    expect(result.roles.find((r) => r.id === ROLE)).toMatchObject({ ok: true, processed: 3, left: 0 });
    expect(inboxOf(ROLE)).toEqual([]);
    expect(inboxOf(OTHER)).toEqual([]);
    expect(process.exitCode).toBeUndefined();
  });

  it('--force --role consolidates that role only, any time; ROLE_NAME alone does the same', async () => {
    setup(AFTERNOON);
    expect(await run('sleep', ['--force', '--role', ROLE], {}, { planner: scriptedPlanner() })).toMatch(
      /^SILICA01: 3 inbox item\(s\) consolidated — \d+ created, \d+ merged, \d+ discarded; 0 forgotten; 0 left \(planner scripted, 1 batch\(es\)\)\.$/,
    );
    expect(inboxOf(OTHER)).toHaveLength(1);
    const byName = JSON.parse(await run('sleep', ['--force', '--json'], { ROLE_NAME: OTHER }, { planner: scriptedPlanner() })) as {
      roles: { id: string }[];
    };
    expect(byName.roles.map((r) => r.id)).toEqual([OTHER]);
    expect(inboxOf(OTHER)).toEqual([]);
  });

  it("prepares each slept role's next load on disk, so the first hook after a cron sleep finds it ready (issue 17)", async () => {
    setup(AFTERNOON);
    const config = home.config();
    const plan = planRoleChange(config, { id: ROLE, name: '矽', nature: '冷靜。', vibe: '簡潔。', emoji: '✨', relationship: '同事。' });
    if (plan.kind !== 'create') throw new Error('expected a new role');
    createRole(config, plan);
    await run('sleep', ['--force', '--role', ROLE], {}, { planner: scriptedPlanner() });
    const logger = { log() {}, info() {}, warn() {}, error() {} };
    const role = readRoleDefinition(config.paths.roleHome, ROLE);
    const ready = memoriesFromFiles(config, role, config.clock.now(), logger, undefined, { save: false });
    expect(ready.source).toBe('prepared');
    fs.rmSync(path.join(config.paths.stateDir, 'prepared'), { recursive: true });
    const computed = memoriesFromFiles(config, role, config.clock.now(), logger, undefined, { save: false });
    expect(computed.source).toBe('files');
    // What the load prints of each item (the prepared form keeps of a memory only what narrowing reads).
    const items = (prepared: typeof ready.preparedLongTerm) =>
      [...prepared.full, ...prepared.digest].map((item) => `${item.memory.category} ${item.text}`);
    expect(items(ready.preparedLongTerm)).toEqual(items(computed.preparedLongTerm));
    expect(items(ready.preparedLongTerm).join('\n')).toContain('第 1 件事');
    // A role without a definition (OTHER has memories only) is left to its first hook, silently.
    expect(fs.existsSync(path.join(config.paths.stateDir, 'prepared', `${OTHER}.json`))).toBe(false);
  });

  it('a failing planner exits 1 with the diagnostics, the inbox untouched', async () => {
    setup(AFTERNOON);
    const failing: Planner = scriptedPlanner(() => 'execution');
    const result = JSON.parse(await run('sleep', ['--force', '--role', ROLE, '--json'], {}, { planner: failing })) as {
      roles: { ok: boolean; error: string }[];
    };
    expect(result.roles[0]!.ok).toBe(false);
    expect(result.roles[0]!.error).toMatch(/material \d+ chars.*batch 1/);
    expect(process.exitCode).toBe(1);
    expect(inboxOf(ROLE)).toHaveLength(3);
  });

  it('names a bad or unknown --role', async () => {
    setup(AFTERNOON);
    await expect(run('sleep', ['--force', '--role', 'silica01'])).rejects.toSatisfy(
      (e: unknown) => e instanceof KiokuError && e.code === 'INVALID_ID',
    );
    await expect(run('sleep', ['--force', '--role', 'NOBODY01'])).rejects.toSatisfy(
      (e: unknown) => e instanceof KiokuError && e.code === 'NOT_FOUND',
    );
  });
});

describe('kioku nap', () => {
  it('naps the roles with enough inbox items and idle long enough, any time of day', async () => {
    // The inbox files' times are their own created (a day earlier): every role is idle by them.
    setup(AFTERNOON);
    const result = JSON.parse(await run('nap', ['--json'], {}, { planner: scriptedPlanner() })) as {
      roles: { id: string; ok: boolean }[];
      skipped: { id: string; reason: string }[];
    };
    expect(result.roles.map((r) => [r.id, r.ok])).toEqual([[ROLE, true]]);
    expect(result.skipped).toEqual([{ id: OTHER, reason: 'inbox 1 < ROLE_NAP_MIN_INBOX 3' }]);
    expect(inboxOf(ROLE)).toEqual([]);
    expect(inboxOf(OTHER)).toHaveLength(1);
  });

  it('does not nap a role someone talked to a moment ago, nor when naps are off', async () => {
    setup(AFTERNOON);
    // Written five minutes before the frozen now: someone just talked to the role.
    const fiveMinutesAgo = new Date(new Date(AFTERNOON).getTime() - 5 * 60_000);
    for (const name of inboxOf(ROLE)) fs.utimesSync(path.join(home.memoryHome, ROLE, 'inbox', name), fiveMinutesAgo, fiveMinutesAgo);
    expect(await run('nap', [], {}, { planner: scriptedPlanner() })).toMatch(
      /SILICA01: no nap — last interaction 5 min ago < ROLE_NAP_IDLE_MINUTES 45/,
    );
    expect(await run('nap', [], { ROLE_NAP_ENABLED: '0' })).toBe('Naps are off (ROLE_NAP_ENABLED=0); nothing was consolidated.');
    expect(inboxOf(ROLE)).toHaveLength(3);
  });
});
