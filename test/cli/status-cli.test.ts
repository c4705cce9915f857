import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexEventLabel, codexHookHash } from '../../main/core/integrations/setup/codex-hook-trust.js';
import { findKiokuHooks } from '../../main/core/integrations/setup/hooks-edit.js';
import { installHooks } from '../../main/core/integrations/setup/hooks-install.js';
import { SPOOL_FAILED, spoolFileName, writeSpoolRecord } from '../../main/core/platform/ipc/spool-writer.js';
import { bundled } from '../ipc/daemon-kit.js';
import { writeMemoryFixture } from '../helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * `kioku status --json` and `kioku diagnose` as scripts see them (CLI.md, OPS-1): the shipped
 * command bundled from source (test/ipc/fixtures/kioku-cli.ts), a temp home, no daemon, and a
 * fake `crontab` on PATH that prints what a test wants `crontab -l` to say.
 */
const CLI = 'test/ipc/fixtures/kioku-cli.ts';
let home: TempHome;
let bin: string;

function kioku(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [bundled(CLI), ...args], {
    env: { ...home.env, PATH: `${bin}:${home.env.PATH}`, ...env },
    cwd: home.root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function statusJson(env: NodeJS.ProcessEnv = {}) {
  const result = kioku(['status', '--json'], env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

function role(id: string, name: string) {
  fs.writeFileSync(path.join(home.roleHome, `${id}.identity.md`), `---\nid: ${id}\nname: ${name}\nemoji: 🧪\n---\n\n# ${name}\n`);
  fs.writeFileSync(path.join(home.roleHome, `${id}.soul.md`), `# ${name}\n\n## 本質（nature）\n\n冷靜。\n\n## 氛圍（vibe）\n\n簡潔。\n`);
}

function fakeCrontab(text: string) {
  const file = path.join(bin, 'crontab');
  fs.writeFileSync(path.join(bin, 'crontab.txt'), text);
  fs.writeFileSync(file, `#!/bin/sh\ncat '${path.join(bin, 'crontab.txt')}'\n`);
  fs.chmodSync(file, 0o755);
}

beforeEach(() => {
  // 23:00 local time, in the default window 22:00–06:00.
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T23:00:00', ROLE_CLI: 'local' });
  bin = path.join(home.root, 'bin');
  fs.mkdirSync(bin);
  fakeCrontab('');
  role('ALPHA01', '阿爾法');
  role('BETA01', '貝塔');
  fs.writeFileSync(path.join(home.roleHome, '.active'), 'ALPHA01\n');
});
afterEach(() => home.cleanup());

describe('kioku status --json (CLI.md shape)', () => {
  it('has roles, activeRole, sleeping, state and daemon, computed from the window when no daemon runs', () => {
    writeMemoryFixture(home.memoryHome, 'ALPHA01', 'inbox', 'in-1', { summary: '待整理', created: '2026-12-01T20:00:00+08:00' });
    writeMemoryFixture(home.memoryHome, 'ALPHA01', 'important', 'imp-1', { summary: '重要', memory_type: 'emotional', priority: 4 });
    // A year-old, low-priority, never-recalled episode: PM-2 fuzzy.
    writeMemoryFixture(home.memoryHome, 'ALPHA01', 'daily', 'old-1', {
      summary: '很久以前',
      memory_type: 'episodic',
      priority: 1,
      strength: 10,
      created: '2025-11-01T10:00:00+08:00',
      updated: '2025-11-01T10:00:00+08:00',
    });
    fs.writeFileSync(
      path.join(home.memoryHome, 'ALPHA01', 'state.json'),
      // last_activity in local time like KIOKU_NOW: 21:30+08:00 would be ahead of the clock in
      // zones east of Taipei, and a time ahead of the clock is not an interaction (issue 11).
      JSON.stringify({
        last_sleep: '2026-12-01T05:00:00+08:00',
        last_forget: '2026-11-30T05:00:00+08:00',
        last_activity: '2026-12-01T21:30:00',
      }),
    );
    const status = statusJson();
    expect(status).toMatchObject({
      activeRole: 'ALPHA01',
      sleeping: true,
      state: 'asleep',
      stateSource: 'computed',
      daemon: { running: false },
    });
    expect(status.roles.map((r: { id: string }) => r.id)).toEqual(['ALPHA01', 'BETA01']);
    const alpha = status.roles[0];
    expect(alpha).toMatchObject({
      name: '阿爾法',
      active: true,
      covered: true,
      inbox: 1,
      memory: { total: 3, categories: { inbox: 1, important: 1, daily: 1 }, types: { emotional: 1, episodic: 2 } }, // the inbox item defaults to episodic
      clarity: { clear: 1, faded: 0, fuzzy: 1 },
      lastInteractionSource: 'state.json',
    });
    expect(Date.parse(alpha.lastSleep)).toBe(Date.parse('2026-12-01T05:00:00+08:00'));
    expect(Date.parse(alpha.lastForget)).toBe(Date.parse('2026-11-30T05:00:00+08:00'));
    expect(Date.parse(alpha.lastInteraction)).toBe(new Date(2026, 11, 1, 21, 30).getTime());
    expect(status.roles[1]).toMatchObject({ id: 'BETA01', active: false, inbox: 0, lastSleep: null, memory: { total: 0 } });
    expect(status.roleResolution).toMatchObject({ id: 'ALPHA01', source: 'active', exists: true });
    expect(status.sleepWindow).toEqual({ start: '22:00', end: '06:00', now: true });
    expect(status.dependencies.planner).toMatchObject({ setting: 'local', cli: null });
    expect(status.schedule).toMatchObject({ present: false, by: [], cron: { available: true, entries: [] } });
    expect(status.hooks.map((h: { assistant: string }) => h.assistant)).toEqual(['claude', 'codex', 'gemini']);
  });

  it('outside the window the computed state is awake; ROLE_NAME overrides .active; no crontab is no failure', () => {
    fs.rmSync(path.join(bin, 'crontab'));
    const status = statusJson({ KIOKU_NOW: '2026-12-01T14:00:00', ROLE_NAME: 'BETA01', PATH: bin });
    expect(status).toMatchObject({ activeRole: 'BETA01', sleeping: false, state: 'awake', roleResolution: { source: 'env' } });
    expect(status.roles.find((r: { id: string }) => r.id === 'BETA01').active).toBe(true);
    expect(status.schedule.cron).toMatchObject({ available: false, problem: 'no crontab command on this machine' });
  });

  it('ROLE_TIMEZONE moves the window to the user’s clock and is shown with where it came from (issue 11)', () => {
    // A moment inside the window in Kathmandu (UTC+05:45) and outside it in the suite's zone: one
    // of 22:30, 01:30 or 04:30 Kathmandu time is daytime in any zone the suite runs in.
    const candidates = ['2026-12-01T16:45:00Z', '2026-12-01T19:45:00Z', '2026-12-01T22:45:00Z'];
    const awakeHere = (iso: string) => {
      const hour = new Date(iso).getHours();
      return hour >= 6 && hour < 22;
    };
    const now = candidates.find(awakeHere)!;
    expect(now, 'some candidate is daytime in the suite zone').toBeDefined();
    expect(statusJson({ KIOKU_NOW: now })).toMatchObject({
      sleeping: false,
      timeZone: { zone: process.env.TZ, source: 'TZ', problems: [] },
    });
    const status = statusJson({ KIOKU_NOW: now, ROLE_TIMEZONE: 'Asia/Kathmandu' });
    expect(status).toMatchObject({
      sleeping: true,
      sleepWindow: { now: true },
      timeZone: { zone: 'Asia/Kathmandu', source: 'setting', offset: '+05:45', shellTz: process.env.TZ },
    });
    expect(status.now).toMatch(/^2026-12-0[12]T(22|01|04):30:00\+05:45$/);
    expect(status.timeZone.problems.map((p: { code: string }) => p.code)).toEqual(['zone.shellDiffers']);
    const text = kioku(['diagnose'], { KIOKU_NOW: now, ROLE_TIMEZONE: 'Asia/Kathmandu' }).stdout;
    expect(text).toMatch(new RegExp(`^✗ 時區 time zone: your shell's TZ=${process.env.TZ} differs from ROLE_TIMEZONE=Asia/Kathmandu`, 'm'));
  });

  it('warns when a role with many memories has no emotional one (seed 000 §情緒)', () => {
    for (let i = 0; i < 10; i++)
      writeMemoryFixture(home.memoryHome, 'BETA01', 'skill', `s-${i}`, { summary: `技能 ${i}`, memory_type: 'procedural' });
    const status = statusJson();
    const beta = status.roles.find((r: { id: string }) => r.id === 'BETA01');
    expect(beta.warnings.join('\n')).toMatch(/no emotional memories among 10 consolidated ones/);
    expect(status.roles.find((r: { id: string }) => r.id === 'ALPHA01').warnings).toEqual([]);
  });

  it('reads the schedule from tagged crontab lines: target, pinned role, legacy lines', () => {
    const launcher = path.join(home.root, 'kioku-launcher.sh');
    fs.writeFileSync(launcher, '#!/bin/sh\n');
    fakeCrontab(
      [
        `0 22-23,0-5 * * * PATH=/usr/bin ROLE_SLEEP_ALL_ROLES=1 ${launcher} --cron sleep # kioku:sleep`,
        `*/10 * * * * PATH=/usr/bin ROLE_NAME=ALPHA01 /gone/v1.2/launcher.sh --cron nap # kioku:nap`,
        `0 * * * * /old/role_sleep.sh # jsc-role-sleep`,
        '',
      ].join('\n'),
    );
    const status = statusJson();
    expect(status.schedule).toMatchObject({ present: true, by: ['cron'], coveredRoles: ['ALPHA01', 'BETA01'], uncoveredRoles: [] });
    expect(status.schedule.cron.entries).toEqual([
      { kind: 'sleep', schedule: '0 22-23,0-5 * * *', program: launcher, programExists: true, disabled: false, pinnedRole: null },
      {
        kind: 'nap',
        schedule: '*/10 * * * *',
        program: '/gone/v1.2/launcher.sh',
        programExists: false,
        disabled: false,
        pinnedRole: 'ALPHA01',
      },
    ]);
    expect(status.schedule.cron.legacyEntries).toBe(1);
    const warnings = status.schedule.warnings.join('\n');
    expect(warnings).toMatch(/nap runs \/gone\/v1\.2\/launcher\.sh, which does not exist/);
    expect(warnings).toMatch(/serves ALPHA01 only/);
    expect(warnings).toMatch(/jsc-role-sleep/);
  });
});

describe('kioku diagnose', () => {
  it('prints a ✓/✗ checklist with what to do for each ✗', () => {
    const result = kioku(['diagnose']);
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/^✓ 角色解析 role: ALPHA01 \(from \.active\)/m);
    expect(out).toMatch(/^✗ hook 註冊 hooks: no assistant has Kioku hooks\n {4}→ `kioku hooks install`/m);
    expect(out).toMatch(/^✗ 時段 sleep window: now is inside 22:00–06:00/m);
    expect(out).toMatch(/^✗ 排程 schedule: no running daemon with a scheduler and no Kioku crontab lines\n {4}→ run `kioku daemon`/m);
    expect(out).toMatch(/^✓ 依賴 planner: local planner/m);
    expect(out).toMatch(/check\(s\) need attention/);
  });

  it('names an ROLE_NAME that has no role file, and an overdue inbox', () => {
    writeMemoryFixture(home.memoryHome, 'BETA01', 'inbox', 'in-1', { summary: '等了很久' });
    const out = kioku(['diagnose'], { ROLE_NAME: 'GHOST01', KIOKU_NOW: '2026-12-01T14:00:00' }).stdout;
    expect(out).toMatch(/^✗ 角色解析 role: GHOST01 \(from ROLE_NAME\) has no definition file/m);
    expect(out).toMatch(/^✗ 記憶 BETA01: 1 inbox item\(s\) waiting; last sleep never\n {4}→ `kioku sleep --force --role BETA01`/m);
    expect(out).toMatch(/^✓ 時段 sleep window: awake now/m);
  });
});

describe('the capture backlog (issue 13): events spooled while no daemon ran', () => {
  const spoolDir = () => path.join(home.memoryHome, '.kioku', 'spool');
  /** Spooled 150 and 30 minutes before the frozen 23:00 (KIOKU_NOW is local time in the same zone). */
  function spool(): void {
    const now = new Date('2026-12-01T23:00:00').getTime();
    for (const [id, minutes] of [
      ['ev-old', 150],
      ['ev-new', 30],
    ] as const) {
      writeSpoolRecord(
        spoolDir(),
        { eventId: id, assistant: 'claude', event: 'stop', payload: {}, env: {} },
        'hook',
        new Date(now - minutes * 60_000),
      );
    }
  }

  it('kioku status --json counts them, with the oldest one’s time and age', () => {
    expect(statusJson().spool).toEqual({ count: 0, oldest: null, oldestAgeMinutes: null, failed: 0 });
    spool();
    fs.mkdirSync(path.join(spoolDir(), SPOOL_FAILED));
    fs.writeFileSync(path.join(spoolDir(), SPOOL_FAILED, spoolFileName()), '{}');
    const report = statusJson();
    expect(report.spool).toMatchObject({ count: 2, oldestAgeMinutes: 150, failed: 1 });
    expect(report.spool.oldest).toMatch(/^2026-12-01T20:30:00/);
    expect(kioku(['status']).stdout).toMatch(
      /^待擷取 spool: 2 event\(s\) waiting, the oldest since 2026-12-01T20:30:00\S* \(150 min\); 1 failed/m,
    );
  });

  it('kioku diagnose: a ✗ row with what to do when events wait and no daemon runs; none when the spool is empty', () => {
    expect(kioku(['diagnose']).stdout).not.toMatch(/待擷取 spool/);
    spool();
    const out = kioku(['diagnose']).stdout;
    expect(out).toMatch(
      /^✗ 待擷取 spool: 2 captured event\(s\) wait in the spool since 2026-12-01T20:30:00\S* \(150 min\) and no daemon runs to take them into the inbox\n {4}→ run `kioku sleep --force`/m,
    );
  });
});

describe('kioku diagnose tells the truth about hooks (issue 13)', () => {
  const codexDir = () => path.join(home.root, '.codex');
  const claudeDir = () => path.join(home.root, '.claude');
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };

  it('Codex hooks installed but not trusted in /hooks: ✗ with what to do; trusted: ✓; a garbled config.toml: ✗ naming it', () => {
    installHooks(['codex'], { env: home.env, clientPath: path.join(home.root, 'kioku-hook.js'), execPath: '/usr/bin/node' });
    const before = kioku(['diagnose']).stdout;
    expect(before).toMatch(new RegExp(`^✓ hook 註冊 hooks: codex: ${codexDir()}/hooks\\.json$`, 'm'));
    expect(before).toMatch(
      /^✗ hook 註冊 hooks: codex: not trusted yet in \/hooks: SessionStart, UserPromptSubmit, Stop, PreCompact, PostCompact, SubagentStart — Codex skips hooks you have not trusted, without a word \(trust is kept in \S+\/\.codex\/config\.toml\)\n {4}→ open Codex, type `\/hooks`, pick each Kioku hook and press `t` to trust it/m,
    );
    // What Codex 0.171.0's /hooks writes on "t" (observed): one table per hook, keyed by place.
    const hooksFile = path.join(codexDir(), 'hooks.json');
    const found = findKiokuHooks(JSON.parse(fs.readFileSync(hooksFile, 'utf8')).hooks);
    const tables = found.map(
      (f) =>
        `[hooks.state."${hooksFile}:${codexEventLabel(f.native)}:${f.groupIndex}:${f.handlerIndex}"]\ntrusted_hash = "${codexHookHash({ event: f.native, matcher: f.matcher, entry: f.entry })}"\n`,
    );
    write(path.join(codexDir(), 'config.toml'), ['[hooks.state]', '', ...tables].join('\n'));
    const after = kioku(['diagnose']).stdout;
    expect(after).toMatch(/^✓ hook 註冊 hooks: codex: Kioku's 6 hook\(s\) are trusted in \/hooks/m);
    expect(after).not.toMatch(/not trusted yet/);
    write(path.join(codexDir(), 'config.toml'), '[hooks.state."unclosed\n');
    const garbled = kioku(['diagnose']);
    expect(garbled.stderr).toBe('');
    expect(garbled.stdout).toMatch(
      /^✗ hook 註冊 hooks: codex: cannot tell whether Codex trusts Kioku's hooks: \S+\/\.codex\/config\.toml it is not valid TOML \(line 1: .*\)\n {4}→ fix that file by hand/m,
    );
  });

  it('Claude Code hooks from an installed, enabled plugin count as installed; disabled: ✗ with the command that enables it', () => {
    // As `claude plugin marketplace add <dir>` + `claude plugin install kioku@kioku-local` left them (2.1.197).
    const installPath = path.join(claudeDir(), 'plugins', 'cache', 'kioku-local', 'kioku', '0.1.0');
    write(path.join(installPath, '.claude-plugin', 'plugin.json'), fs.readFileSync('.claude-plugin/plugin.json', 'utf8'));
    write(path.join(installPath, 'hooks', 'hooks.json'), fs.readFileSync('hooks/hooks.json', 'utf8'));
    const at = '2026-12-02T00:27:12.921Z';
    write(
      path.join(claudeDir(), 'plugins', 'installed_plugins.json'),
      JSON.stringify(
        {
          version: 2,
          plugins: { 'kioku@kioku-local': [{ scope: 'user', installPath, version: '0.1.0', installedAt: at, lastUpdated: at }] },
        },
        null,
        2,
      ),
    );
    const settings = (enabled: boolean) =>
      JSON.stringify(
        {
          extraKnownMarketplaces: { 'kioku-local': { source: { source: 'directory', path: '/src/mkt' } } },
          enabledPlugins: { 'kioku@kioku-local': enabled },
        },
        null,
        2,
      );
    write(path.join(claudeDir(), 'settings.json'), settings(true));
    const on = kioku(['diagnose']).stdout;
    expect(on).not.toMatch(/no assistant has Kioku hooks/);
    expect(on).toMatch(new RegExp(`^✓ hook 註冊 hooks: claude: plugin kioku@kioku-local \\(user\\) — ${installPath}$`, 'm'));
    write(path.join(claudeDir(), 'settings.json'), settings(false));
    const off = kioku(['diagnose']).stdout;
    expect(off).toMatch(/^✗ hook 註冊 hooks: no assistant has Kioku hooks/m);
    expect(off).toMatch(
      /^✗ hook 註冊 hooks: claude: plugin kioku@kioku-local is installed \(user\) but disabled \(enabledPlugins in \S+\/\.claude\/settings\.json\)\n {4}→ `claude plugin enable kioku@kioku-local`/m,
    );
  });

  it('nothing installed anywhere: the same ✗ as before, and a word on claude --plugin-dir', () => {
    fs.mkdirSync(claudeDir());
    const out = kioku(['diagnose']).stdout;
    expect(out).toMatch(
      /^✗ hook 註冊 hooks: no assistant has Kioku hooks\n {4}→ `kioku hooks install` \(then restart the assistant\)\n– hook 註冊 hooks: claude: no Kioku hooks in its settings or an installed plugin; a plugin loaded with `claude --plugin-dir <folder>` lasts for that one run/m,
    );
  });
});
