import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isKiokuError } from '../../../../common/errors.js';
import {
  clientPathOf,
  hooksStatus,
  installHooks,
  nodeForHooks,
  settingsPathFor,
  uninstallHooks,
  type HooksOptions,
} from './hooks-install.js';

let home: string;
let options: HooksOptions;
let client: string;

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku hooks '));
  client = path.join(home, 'Kioku App', 'dist', 'hooks', 'kioku-hook.js');
  fs.mkdirSync(path.dirname(client), { recursive: true });
  fs.writeFileSync(client, '// hook client');
  options = { env: { HOME: home }, clientPath: client, execPath: '/usr/local/bin/node' };
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, any>;

/** A user's settings.json as it might look: other tools' hooks, a matcher, unrelated keys. */
const USER_SETTINGS = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test:*)'], deny: [] },
  hooks: {
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: '~/bin/greet.sh', timeout: 5 }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'python3 ~/guard.py' }] }],
    Stop: [],
  },
  statusLine: { type: 'command', command: 'ccline' },
};

function writeClaudeSettings(value: unknown = USER_SETTINGS): { file: string; text: string } {
  const file = settingsPathFor('claude', options.env);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const text = `${JSON.stringify(value, null, 4)}\n`; // not our indentation: the .bak must keep it
  fs.writeFileSync(file, text);
  return { file, text };
}

describe('install', () => {
  it('adds our entries and keeps every other key and hook', () => {
    const { file, text } = writeClaudeSettings();
    const [change] = installHooks(['claude'], options);
    expect(change).toMatchObject({ assistant: 'claude', action: 'installed', hooks: 7, backup: `${file}.bak` });
    expect(fs.readFileSync(`${file}.bak`, 'utf8')).toBe(text);
    const after = read(file);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${JSON.stringify(after, null, 2)}\n`);
    expect(after.model).toBe('opus');
    expect(after.permissions).toEqual(USER_SETTINGS.permissions);
    expect(after.statusLine).toEqual(USER_SETTINGS.statusLine);
    expect(after.hooks.PreToolUse).toEqual(USER_SETTINGS.hooks.PreToolUse);
    expect(Object.keys(after.hooks)).toEqual([
      'SessionStart',
      'PreToolUse',
      'Stop',
      'UserPromptSubmit',
      'PreCompact',
      'PostCompact',
      'SessionEnd',
      'SubagentStart',
    ]);
    // The user's own SessionStart group stays first; ours follows with its own matcher.
    expect(after.hooks.SessionStart[0]).toEqual(USER_SETTINGS.hooks.SessionStart[0]);
    expect(after.hooks.SessionStart[1]).toEqual({
      matcher: 'startup|resume|clear|compact',
      hooks: [{ type: 'command', command: `/usr/local/bin/node "${client}" session-start --assistant claude`, timeout: 15 }],
    });
    expect(after.hooks.SessionEnd[0].hooks[0].timeout).toBeLessThanOrEqual(1.5);
  });

  it('is idempotent: a second install writes nothing', () => {
    const { file } = writeClaudeSettings();
    installHooks(['claude'], options);
    const before = fs.readFileSync(file, 'utf8');
    const bak = fs.readFileSync(`${file}.bak`, 'utf8');
    const [again] = installHooks(['claude'], options);
    expect(again).toMatchObject({ action: 'unchanged', hooks: 7 });
    expect(again!.backup).toBeUndefined();
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(fs.readFileSync(`${file}.bak`, 'utf8')).toBe(bak);
  });

  it('updates entries that point at another install, never touching the first .bak', () => {
    const { file, text } = writeClaudeSettings();
    installHooks(['claude'], { ...options, clientPath: '/old/place/dist/hooks/kioku-hook.js' });
    const [change] = installHooks(['claude'], options);
    expect(change!.action).toBe('updated');
    expect(fs.readFileSync(`${file}.bak`, 'utf8')).toBe(text);
    const commands = JSON.stringify(read(file).hooks);
    expect(commands).not.toContain('/old/place');
    expect(read(file).hooks.SessionStart).toHaveLength(2);
  });

  it('refuses a settings file that is not valid JSON and writes nothing anywhere', () => {
    const file = settingsPathFor('claude', options.env);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{ "model": "opus", // a comment\n }');
    let caught: unknown;
    try {
      installHooks(['codex', 'claude'], options);
    } catch (error) {
      caught = error;
    }
    expect(isKiokuError(caught) && caught.code).toBe('INVALID_FILE');
    expect((caught as Error).message).toContain(file);
    expect(fs.readFileSync(file, 'utf8')).toBe('{ "model": "opus", // a comment\n }');
    expect(fs.existsSync(settingsPathFor('codex', options.env))).toBe(false);
    expect(fs.existsSync(`${file}.bak`)).toBe(false);
  });

  it('refuses a "hooks" value that is not an object', () => {
    writeClaudeSettings({ hooks: [] });
    expect(() => installHooks(['claude'], options)).toThrow(/"hooks" value that is not an object/);
  });

  it('Codex: respects CODEX_HOME, creates the file, quotes paths with spaces, has no SessionEnd', () => {
    const codexHome = path.join(home, 'codex home');
    const [change] = installHooks(['codex'], { ...options, env: { HOME: home, CODEX_HOME: codexHome } });
    const file = path.join(codexHome, 'hooks.json');
    expect(change).toMatchObject({ action: 'installed', settingsFile: file, hooks: 6 });
    expect(change!.backup).toBeUndefined();
    expect(change!.notes.join(' ')).toMatch(/trust/);
    const hooks = read(file).hooks;
    expect(Object.keys(hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact', 'PostCompact', 'SubagentStart']);
    const command = hooks.Stop[0].hooks[0].command as string;
    expect(command).toBe(`/usr/local/bin/node "${client}" stop --assistant codex`);
    expect(clientPathOf(hooks.Stop[0].hooks[0])).toBe(client);
  });

  it('Gemini: its event names, millisecond timeouts and names; its other hook keys stay', () => {
    const file = settingsPathFor('gemini', options.env);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({
        theme: 'Dracula',
        hooks: {
          enabled: true,
          disabled: ['old-hook'],
          BeforeTool: [{ matcher: 'write_file', hooks: [{ name: 'lint', type: 'command', command: 'lint.sh' }] }],
        },
      }),
    );
    installHooks(['gemini'], options);
    const after = read(file);
    expect(after.theme).toBe('Dracula');
    expect(after.hooks.enabled).toBe(true);
    expect(after.hooks.disabled).toEqual(['old-hook']);
    expect(after.hooks.BeforeTool[0].hooks[0].name).toBe('lint');
    expect(after.hooks.BeforeAgent[0].hooks[0]).toEqual({
      name: 'kioku-user-prompt-submit',
      type: 'command',
      command: `/usr/local/bin/node "${client}" user-prompt-submit --assistant gemini`,
      timeout: 10_000,
    });
    expect(after.hooks.SessionStart[0].matcher).toBeUndefined();
    expect(after.hooks.SessionEnd[0].hooks[0].timeout).toBe(1500);
    expect(Object.keys(after.hooks)).not.toContain('PostCompact');
  });

  it('notes a missing hook client and an enabled Kioku plugin', () => {
    writeClaudeSettings({ enabledPlugins: { 'kioku@kioku-market': true } });
    const [change] = installHooks(['claude'], { ...options, clientPath: path.join(home, 'nowhere', 'kioku-hook.js') });
    expect(change!.notes.join('\n')).toMatch(/does not exist yet/);
    expect(change!.notes.join('\n')).toMatch(/plugin is enabled too/);
  });
});

describe('uninstall', () => {
  it('removes only our entries; what is left means what the file meant before', () => {
    const { file } = writeClaudeSettings();
    installHooks(['claude'], options);
    const [change] = uninstallHooks(['claude'], options);
    expect(change).toMatchObject({ action: 'removed', hooks: 7 });
    // An event left with no groups goes, so the user's empty `"Stop": []` goes too: same meaning.
    const { Stop: _empty, ...userHooks } = USER_SETTINGS.hooks;
    expect(read(file)).toEqual({ ...USER_SETTINGS, hooks: userHooks });
  });

  it('leaves a file without our entries, or no file, untouched', () => {
    const { file, text } = writeClaudeSettings();
    expect(uninstallHooks(['claude', 'gemini'], options).map((c) => c.action)).toEqual(['unchanged', 'unchanged']);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    expect(fs.existsSync(`${file}.bak`)).toBe(false);
    expect(fs.existsSync(settingsPathFor('gemini', options.env))).toBe(false);
  });

  it('takes out our entry from a group the user shared with another hook', () => {
    const shared = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'notify.sh' },
              { type: 'command', command: `node "${client}" stop --assistant claude` },
            ],
          },
        ],
      },
    };
    const { file } = writeClaudeSettings(shared);
    uninstallHooks(['claude'], options);
    expect(read(file)).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }] } });
  });
});

describe('status', () => {
  it('reports installed, events, missing events and whether the client exists', () => {
    writeClaudeSettings();
    expect(hooksStatus(['claude'], options)[0]).toMatchObject({
      installed: false,
      complete: false,
      events: [],
      fileExists: true,
      expectedClientExists: true,
    });
    installHooks(['claude'], options);
    const file = settingsPathFor('claude', options.env);
    const settings = read(file);
    delete settings.hooks.PostCompact;
    fs.writeFileSync(file, JSON.stringify(settings));
    const [status] = hooksStatus(['claude'], options);
    expect(status).toMatchObject({ installed: true, complete: false, missingEvents: ['PostCompact'] });
    expect(status!.events).toContain('SessionStart');
    expect(status!.commands.every((c) => c.clientPath === client && c.clientExists === true)).toBe(true);
    fs.rmSync(client);
    expect(hooksStatus(['claude'], options)[0]!.commands[0]!.clientExists).toBe(false);
  });

  it('reports an unreadable file instead of failing, and a missing file as not installed', () => {
    const file = settingsPathFor('gemini', options.env);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'not json');
    const [gemini, codex] = hooksStatus(['gemini', 'codex'], options);
    expect(gemini!.problem).toContain(file);
    expect(codex).toMatchObject({ fileExists: false, installed: false });
  });
});

describe('settingsPathFor', () => {
  it('follows HOME, CLAUDE_CONFIG_DIR and CODEX_HOME (with ~)', () => {
    expect(settingsPathFor('claude', { HOME: '/h' })).toBe(path.resolve('/h/.claude/settings.json'));
    expect(settingsPathFor('claude', { HOME: '/h', CLAUDE_CONFIG_DIR: '~/cc' })).toBe(path.resolve('/h/cc/settings.json'));
    expect(settingsPathFor('codex', { HOME: '/h', CODEX_HOME: '~/.cx' })).toBe(path.resolve('/h/.cx/hooks.json'));
    expect(settingsPathFor('gemini', { HOME: '/h' })).toBe(path.resolve('/h/.gemini/settings.json'));
  });
});

describe('the Node that runs the hooks', () => {
  it('is the running Node outside Electron', () => {
    expect(
      nodeForHooks({ PATH: '' }, { ...process.versions, electron: undefined } as unknown as NodeJS.ProcessVersions, '/usr/bin/node20'),
    ).toBe('/usr/bin/node20');
  });

  it('inside the Electron app is a node on PATH, never the app binary', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-node-'));
    try {
      const node = path.join(dir, 'node');
      fs.writeFileSync(node, '#!/bin/sh\n', { mode: 0o755 });
      const electron = { ...process.versions, electron: '45.0.0' } as NodeJS.ProcessVersions;
      expect(nodeForHooks({ PATH: dir }, electron, '/opt/Kioku/kioku')).toBe(node);
      expect(() => nodeForHooks({ PATH: '' }, electron, '/opt/Kioku/kioku')).toThrow(/Node\.js/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
