import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KiokuError } from '../../common/errors.js';
import { createCliContext } from '../../main/cli/cli-context.js';
import { registerDemoCommand } from '../../main/cli/commands/demo-command.js';
import type { DemoReport, DemoStep } from '../../main/core/hosts/demo/demo-types.js';
import { runDemo } from '../../main/core/hosts/demo/run-demo.js';
import { bundleEntry } from '../helpers/bundle-entry.js';
import { snapshotTree } from '../helpers/temp-home.js';

/**
 * `kioku demo` end to end: the command runs in-process, the hook client is a real child process
 * (a bundle of hooks/kioku-hook.ts, so dist/ is not needed). The user's "real" homes are a
 * separate temp folder with a role already in it, to prove the demo neither reads nor writes them.
 */
let client: string;
let sandbox: string;
let userHome: string;
let tmpRoot: string;
let env: NodeJS.ProcessEnv;
let userHomeBefore: Record<string, string>;

beforeAll(() => {
  client = bundleEntry('hooks/kioku-hook.ts');
  sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-demo-test-'));
  userHome = path.join(sandbox, 'user-home');
  tmpRoot = path.join(sandbox, 'tmp');
  fs.mkdirSync(path.join(userHome, '.roles'), { recursive: true });
  fs.mkdirSync(path.join(userHome, '.memory'), { recursive: true });
  fs.mkdirSync(tmpRoot);
  fs.writeFileSync(path.join(userHome, '.roles', '.active'), 'MUSE01\n');
  env = {
    PATH: process.env.PATH,
    HOME: userHome,
    TZ: process.env.TZ,
    KIOKU_NOW: '2026-03-14T10:00:00+08:00',
    ROLE_HOME: path.join(userHome, '.roles'),
    ROLE_MEMORY_HOME: path.join(userHome, '.memory'),
    // Settings from the user's shell that would break the demo if they leaked into it.
    ROLE_ENABLED: '0',
    KIOKU_HOOK_DISABLED: '1',
  };
  userHomeBefore = snapshotTree(userHome);
});

afterAll(() => {
  fs.rmSync(sandbox, { recursive: true, force: true });
});

async function runCommand(args: string[]): Promise<{ stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text) };
  const program = new Command('kioku').exitOverride();
  registerDemoCommand(program, () => createCliContext(env, io), { hookClientPath: client, env, tmpRoot });
  await program.parseAsync(['node', 'kioku', 'demo', ...args]);
  return { stdout, stderr };
}

function stepOf<K extends DemoStep['id']>(report: DemoReport, id: K): Extract<DemoStep, { id: K }>[] {
  return report.steps.filter((step): step is Extract<DemoStep, { id: K }> => step.id === id);
}

describe('kioku demo', () => {
  let report: DemoReport;

  beforeAll(async () => {
    const { stdout } = await runCommand(['--json']);
    report = JSON.parse(stdout) as DemoReport;
  });

  it('runs to the end on a kept throw-away home with the sample role', () => {
    expect(report.ok).toBe(true);
    expect(report.kept).toBe(true);
    expect(path.dirname(report.home)).toBe(fs.realpathSync(tmpRoot));
    expect(report.roleId).toBe('ENGINEER01');
    for (const file of ['roles/ENGINEER01.identity.md', 'roles/ENGINEER01.soul.md', 'roles/.active']) {
      expect(fs.existsSync(path.join(report.home, file)), file).toBe(true);
    }
    expect(fs.readFileSync(path.join(report.home, 'roles', 'ENGINEER01.identity.md'), 'utf8')).toContain('小豹');
    const [seed] = stepOf(report, 'seed');
    expect(fs.existsSync(path.join(report.home, seed!.file))).toBe(true);
  });

  it('replays every turn through the hook client and keeps only the turns with a cue', () => {
    const turns = stepOf(report, 'turn');
    expect(turns).toHaveLength(3);
    for (const turn of turns) {
      expect(turn.stop.exitCode).toBe(0);
      expect(turn.captured).toHaveLength(1);
    }
    expect(turns[0]!.captured[0]!.written).toEqual([]);
    expect(turns[1]!.captured[0]!.written).toHaveLength(1);
    expect(turns[2]!.captured[0]!.written).toHaveLength(1);
    const transcript = stepOf(report, 'session-start')[0]!.transcript;
    expect(fs.readFileSync(path.join(report.home, transcript), 'utf8').trim().split('\n')).toHaveLength(6);
    expect(stepOf(report, 'session-end')[0]!.lockReleased).toBe(true);
  });

  it('puts the "remember" turn into the inbox in Traditional Chinese, and the feeling apart from it', () => {
    const [inbox] = stepOf(report, 'inbox');
    expect(inbox!.failed).toBe(0);
    const preference = inbox!.entries.find((entry) => entry.memoryType === 'preference');
    expect(preference?.summary).toContain('記住：我習慣用 pnpm');
    const onDisk = fs.readFileSync(path.join(report.home, preference!.file), 'utf8');
    expect(onDisk).toContain('使用者原話：記住：我習慣用 pnpm');
    expect(onDisk).not.toMatch(/[记习惯给们这]/);
    expect(inbox!.entries.some((entry) => entry.memoryType === 'emotional' && entry.summary.includes('好累'))).toBe(true);
    // The spool is empty: every event was handled, none left behind or failed.
    const spool = path.join(report.home, 'memory', '.kioku', 'spool');
    expect(fs.readdirSync(spool).filter((name) => name.endsWith('.json'))).toEqual([]);
  });

  it('shows a next SessionStart that loads the role and the remembered preference', () => {
    const [next] = stepOf(report, 'next-session');
    expect(next!.hook.stdout).toBe(report.injection);
    expect(report.injection).toContain('小豹');
    expect(report.injection).toContain('近期工作記憶');
    expect(report.injection).toContain('我習慣用 pnpm');
  });

  it('writes nothing outside its own home', () => {
    expect(snapshotTree(userHome)).toEqual(userHomeBefore);
    expect(fs.readdirSync(tmpRoot)).toEqual([path.basename(report.home)]);
  });
});

describe('kioku demo --clean', () => {
  it('narrates each step in zh-TW and removes the home at the end', async () => {
    const before = new Set(fs.readdirSync(tmpRoot));
    const { stdout } = await runCommand(['--clean']);
    for (const header of [
      '1. 建立角色 (create a role)',
      '4. 重播對話',
      '6. 收件匣裡有什麼',
      '7. 下一個工作階段會注入什麼',
      '完成 (done)',
    ]) {
      expect(stdout).toContain(header);
    }
    expect(stdout).toMatch(/stdout（[\d,]+ 字元，只顯示前 600/);
    expect(stdout).toContain('沒有保存：太短，也沒有記憶線索');
    const home = /示範家目錄 \(throw-away home\)：(.+)/.exec(stdout)?.[1];
    expect(home).toBeDefined();
    expect(fs.existsSync(home!)).toBe(false);
    expect(fs.readdirSync(tmpRoot).filter((name) => !before.has(name))).toEqual([]);
  });
});

describe('kioku demo failures', () => {
  it('names a missing hook client and creates no home', async () => {
    const before = fs.readdirSync(tmpRoot);
    const missing = path.join(sandbox, 'nowhere', 'kioku-hook.js');
    const error = await runDemo({ hookClientPath: missing, env, tmpRoot }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KiokuError);
    expect((error as KiokuError).code).toBe('NOT_FOUND');
    expect((error as KiokuError).message).toContain(missing);
    expect(fs.readdirSync(tmpRoot)).toEqual(before);
  });

  it('says which step failed when the hook client is broken, and cleans up with --clean', async () => {
    const broken = path.join(sandbox, 'broken-hook.mjs');
    fs.writeFileSync(broken, 'process.exit(3);\n');
    const before = fs.readdirSync(tmpRoot);
    const error = await runDemo({ hookClientPath: broken, env, tmpRoot, clean: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KiokuError);
    expect((error as KiokuError).message).toMatch(/while the first SessionStart: the hook client exited with code 3/);
    expect(fs.readdirSync(tmpRoot)).toEqual(before);
  });
});
