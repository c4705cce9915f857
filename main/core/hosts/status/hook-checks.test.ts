import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DiagnoseCheck } from '../../../../common/ui-contract-notes-types.js';
import { codexHookHash } from '../../integrations/setup/codex-hook-trust.js';
import { findKiokuHooks } from '../../integrations/setup/hooks-edit.js';
import { installHooks, settingsPathFor } from '../../integrations/setup/hooks-install.js';
import { hookChecks } from './hook-checks.js';
import { hooksReport } from './hooks-report.js';

/**
 * The diagnose hooks rows (OPS-1) tell the truth (issue 13): Codex hooks that Codex will not run
 * because the user has not trusted them in `/hooks`, and Kioku's hooks that reach Claude Code
 * through a plugin. The fixture files are shaped as the real clients wrote them on a throw-away
 * home: Codex 0.171.0 (`/hooks` screen → config.toml) and Claude Code 2.1.197
 * (`claude plugin marketplace add <dir>`, `claude plugin install kioku@kioku-local`,
 * `claude plugin disable`, `claude plugin init`).
 */
let home: string;
let env: NodeJS.ProcessEnv;
let client: string;
const REPO_PLUGIN_HOOKS = fs.readFileSync(path.resolve('hooks/hooks.json'), 'utf8');
const REPO_PLUGIN_MANIFEST = fs.readFileSync(path.resolve('.claude-plugin/plugin.json'), 'utf8');

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku diag '));
  env = { HOME: home };
  client = path.join(home, 'Kioku App', 'dist', 'hooks', 'kioku-hook.js');
  fs.mkdirSync(path.dirname(client), { recursive: true });
  fs.writeFileSync(client, '// hook client');
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const checks = (cwd = home): DiagnoseCheck[] => hookChecks(hooksReport(env, cwd));
const codes = (cwd = home) => checks(cwd).map((c) => `${c.mark} ${c.code}`);
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

describe('Codex: installed is not enough, the user must trust the hooks in /hooks', () => {
  const codexDir = () => path.join(home, '.codex');
  const install = (clientPath = client) => installHooks(['codex'], { env, clientPath, execPath: '/usr/bin/node' });

  /** config.toml as Codex's /hooks writes it after "t" on each hook (observed with 0.171.0). */
  function trustAsCodexDoes(extra: (event: string) => string = () => ''): void {
    const hooksFile = settingsPathFor('codex', env);
    const found = findKiokuHooks(JSON.parse(fs.readFileSync(hooksFile, 'utf8')).hooks);
    const tables = found.map(
      (f) =>
        `[hooks.state."${hooksFile}:${f.native.replace(/(?<=[a-z])([A-Z])/g, '_$1').toLowerCase()}:${f.groupIndex}:${f.handlerIndex}"]\ntrusted_hash = "${codexHookHash({ event: f.native, matcher: f.matcher, entry: f.entry })}"\n${extra(f.native)}`,
    );
    write(
      path.join(codexDir(), 'config.toml'),
      ['model = "gpt-5"', '', '[tui]', 'screen_reader_detection_done = true', '', '[hooks.state]', '', ...tables].join('\n'),
    );
  }

  it('hooks that were never trusted: a ✗ row that names them, where trust is kept, and what to do', () => {
    install();
    const rows = checks();
    expect(rows).toContainEqual({
      area: 'hooks',
      code: 'hooks.ok',
      mark: 'ok',
      params: { assistant: 'codex', file: path.join(codexDir(), 'hooks.json') },
    });
    expect(rows).toContainEqual({
      area: 'hooks',
      code: 'hooks.codexUntrusted',
      mark: 'fail',
      params: {
        events: 'SessionStart, UserPromptSubmit, Stop, PreCompact, PostCompact, SubagentStart',
        file: path.join(codexDir(), 'config.toml'),
      },
    });
    expect(rows.some((r) => r.code === 'hooks.codexTrusted')).toBe(false);
  });

  it('all trusted: ✓', () => {
    install();
    trustAsCodexDoes();
    const rows = checks();
    expect(rows).toContainEqual({
      area: 'hooks',
      code: 'hooks.codexTrusted',
      mark: 'ok',
      params: { count: 6, file: path.join(codexDir(), 'config.toml') },
    });
    expect(rows.filter((r) => r.mark === 'fail')).toEqual([]);
  });

  it('trusted, then `kioku hooks install` from another folder changed the commands: they must be trusted again', () => {
    install();
    trustAsCodexDoes();
    install(path.join(home, 'Kioku App 2', 'dist', 'hooks', 'kioku-hook.js'));
    expect(codes()).toContain('fail hooks.codexModified');
    expect(codes()).not.toContain('ok hooks.codexTrusted');
  });

  it('one turned off in /hooks (enabled = false): ✗ naming it', () => {
    install();
    trustAsCodexDoes((event) => (event === 'Stop' ? 'enabled = false\n' : 'enabled = true\n'));
    expect(checks()).toContainEqual(
      expect.objectContaining({ code: 'hooks.codexDisabled', mark: 'fail', params: expect.objectContaining({ events: 'Stop' }) }),
    );
  });

  it('a config.toml that is not TOML: ✗ naming the file and the line, not a stack trace', () => {
    install();
    write(path.join(codexDir(), 'config.toml'), 'model = "gpt-5\n');
    expect(checks()).toContainEqual({
      area: 'hooks',
      code: 'hooks.codexTrustUnknown',
      mark: 'fail',
      params: { file: path.join(codexDir(), 'config.toml'), problem: expect.stringMatching(/^it is not valid TOML \(line 1: /) },
    });
  });

  it('a hooks.json that is not JSON: ✗ naming the file (it used to vanish from the list)', () => {
    write(path.join(codexDir(), 'hooks.json'), '{"hooks": {');
    expect(checks()).toContainEqual({
      area: 'hooks',
      code: 'hooks.unreadable',
      mark: 'fail',
      params: { assistant: 'codex', file: path.join(codexDir(), 'hooks.json'), problem: expect.stringMatching(/^is not valid JSON \(/) },
    });
  });
});

describe('Claude Code: hooks that come from a plugin', () => {
  const claudeDir = () => path.join(home, '.claude');
  const installPath = () => path.join(claudeDir(), 'plugins', 'cache', 'kioku-local', 'kioku', '0.1.0');

  /** What `claude plugin marketplace add` + `claude plugin install kioku@kioku-local` left (2.1.197). */
  function installPlugin(options: { enabled?: boolean; projectPath?: string } = {}): void {
    write(path.join(installPath(), '.claude-plugin', 'plugin.json'), REPO_PLUGIN_MANIFEST);
    write(path.join(installPath(), 'hooks', 'hooks.json'), REPO_PLUGIN_HOOKS);
    const at = '2026-12-02T00:27:12.921Z';
    const entry = { scope: 'user', installPath: installPath(), version: '0.1.0', installedAt: at, lastUpdated: at };
    const entries = options.projectPath ? [entry, { ...entry, scope: 'project', projectPath: options.projectPath }] : [entry];
    write(
      path.join(claudeDir(), 'plugins', 'installed_plugins.json'),
      JSON.stringify({ version: 2, plugins: { 'kioku@kioku-local': entries } }, null, 2),
    );
    const source = { source: 'directory', path: path.join(home, 'mkt') };
    write(
      path.join(claudeDir(), 'plugins', 'known_marketplaces.json'),
      JSON.stringify({ 'kioku-local': { source, installLocation: source.path, lastUpdated: at } }, null, 2),
    );
    const settings = {
      extraKnownMarketplaces: { 'kioku-local': { source } },
      enabledPlugins: { 'kioku@kioku-local': options.enabled ?? true },
    };
    write(settingsPathFor('claude', env), JSON.stringify(settings, null, 2));
  }

  it('an installed, enabled plugin counts as installed: ✓ naming it, and no "no assistant has Kioku hooks"', () => {
    installPlugin();
    const rows = checks();
    expect(rows.some((r) => r.code === 'hooks.none')).toBe(false);
    expect(rows).toContainEqual({
      area: 'hooks',
      code: 'hooks.plugin',
      mark: 'ok',
      params: { assistant: 'claude', plugin: 'kioku@kioku-local', scope: 'user', path: installPath() },
    });
    expect(rows.filter((r) => r.mark === 'fail')).toEqual([]);
  });

  it('installed but disabled (`claude plugin disable`): ✗ with the command that enables it', () => {
    installPlugin({ enabled: false });
    expect(codes()).toEqual(['fail hooks.none', 'fail hooks.pluginDisabled']);
    expect(checks()[1]!.params).toEqual({
      assistant: 'claude',
      plugin: 'kioku@kioku-local',
      scope: 'user',
      file: settingsPathFor('claude', env),
      command: 'claude plugin enable kioku@kioku-local',
    });
  });

  it("a project's .claude/settings.json that turns it off wins there, and only there", () => {
    const project = path.join(home, 'proj');
    installPlugin({ projectPath: project });
    write(path.join(project, '.claude', 'settings.json'), JSON.stringify({ enabledPlugins: { 'kioku@kioku-local': false } }, null, 2));
    expect(checks(project)).toContainEqual(
      expect.objectContaining({
        code: 'hooks.pluginDisabled',
        params: expect.objectContaining({ file: path.join(project, '.claude', 'settings.json') }),
      }),
    );
    // A sub-folder does not read the project's settings (claude plugin list there says enabled).
    fs.mkdirSync(path.join(project, 'sub'));
    expect(codes(path.join(project, 'sub'))).toContain('ok hooks.plugin');
  });

  it('a plugin under ~/.claude/skills/ (`claude plugin init`; <name>@skills-dir) is on until settings turn it off', () => {
    const root = path.join(claudeDir(), 'skills', 'kioku-repo');
    write(path.join(root, '.claude-plugin', 'plugin.json'), REPO_PLUGIN_MANIFEST);
    write(path.join(root, 'hooks', 'hooks.json'), REPO_PLUGIN_HOOKS);
    expect(checks()).toContainEqual(
      expect.objectContaining({
        code: 'hooks.plugin',
        params: expect.objectContaining({ plugin: 'kioku@skills-dir', scope: 'skills-dir' }),
      }),
    );
    write(settingsPathFor('claude', env), JSON.stringify({ enabledPlugins: { 'kioku@skills-dir': false } }));
    expect(codes()).toContain('fail hooks.pluginDisabled');
  });

  it('a plugin that is not Kioku is not counted', () => {
    installPlugin();
    write(
      path.join(installPath(), 'hooks', 'hooks.json'),
      JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'bun on-start.ts' }] }] } }),
    );
    expect(codes()).toEqual(['fail hooks.none', 'info hooks.pluginDir']);
  });

  it('hooks in settings.json and an enabled plugin: ✗, every event would run twice', () => {
    installPlugin();
    installHooks(['claude'], { env, clientPath: client, execPath: '/usr/bin/node' });
    expect(codes()).toEqual(['ok hooks.ok', 'ok hooks.plugin', 'fail hooks.twice']);
  });

  it('nothing anywhere: the old "no assistant has Kioku hooks" row, and a word on --plugin-dir', () => {
    fs.mkdirSync(claudeDir());
    expect(codes()).toEqual(['fail hooks.none', 'info hooks.pluginDir']);
  });

  it('garbled files: a ✗ row naming each, never a stack trace', () => {
    installPlugin();
    write(path.join(claudeDir(), 'plugins', 'installed_plugins.json'), '{"version":2,');
    write(settingsPathFor('claude', env), '{ "enabledPlugins": ');
    const rows = checks().filter((r) => r.code === 'hooks.unreadable');
    expect(rows.map((r) => r.params.file)).toEqual([
      settingsPathFor('claude', env),
      path.join(claudeDir(), 'plugins', 'installed_plugins.json'),
    ]);
    for (const r of rows) expect(r.params.problem).toMatch(/^is not valid JSON \(/);
  });
});
