import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { adapterFor } from '../assistants/adapters.js';
import { defaultHookClientPath, installRootFrom } from './hook-client-path.js';
import { HOOK_REGISTRATIONS, pluginHooksDocument, quoteForShell } from './hook-registrations.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const readJson = (rel: string) => JSON.parse(fs.readFileSync(path.join(ROOT, rel), 'utf8')) as Record<string, any>;

describe('the plugin and config files in the repo', () => {
  it.each([
    ['claude', 'hooks/hooks.json'],
    ['codex', 'hooks/codex-hooks.json'],
    ['gemini', 'hooks/gemini-settings.json'],
  ] as const)('%s: %s is exactly what the registration table says', (assistant, file) => {
    expect(readJson(file)).toEqual(pluginHooksDocument(assistant));
  });

  it('.claude-plugin/plugin.json names the plugin kioku', () => {
    expect(readJson('.claude-plugin/plugin.json').name).toBe('kioku');
  });

  it('hooks/hooks.json runs the built client through node with the plugin root, for every HOOK-1 event', () => {
    const hooks = readJson('hooks/hooks.json').hooks as Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;
    expect(Object.keys(hooks)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'Stop',
      'PreCompact',
      'PostCompact',
      'SessionEnd',
      'SubagentStart',
    ]);
    expect(hooks.SessionStart![0]!.matcher).toBe('startup|resume|clear|compact');
    for (const [native, groups] of Object.entries(hooks)) {
      const entry = groups[0]!.hooks[0]!;
      const event = adapterFor('claude').eventFromName(native)!;
      expect(entry).toMatchObject({
        type: 'command',
        command: 'node',
        args: ['${CLAUDE_PLUGIN_ROOT}/dist/hooks/kioku-hook.js', event, '--assistant', 'claude'],
      });
    }
    // Claude Code gives all SessionEnd hooks about 1.5 s together.
    expect(hooks.SessionEnd![0]!.hooks[0]!.timeout).toBeLessThanOrEqual(1.5);
  });

  it("uses each assistant's own event names, which its adapter maps back", () => {
    for (const assistant of ['claude', 'codex', 'gemini'] as const) {
      for (const registration of HOOK_REGISTRATIONS[assistant]) {
        expect(adapterFor(assistant).eventFromName(registration.native)).toBe(registration.event);
        expect(adapterFor(assistant).nativeEventName(registration.event)).toBe(registration.native);
      }
    }
    expect(HOOK_REGISTRATIONS.gemini.every((r) => r.timeout >= 1000)).toBe(true); // milliseconds
  });
});

describe('defaultHookClientPath', () => {
  it('points at dist/hooks/kioku-hook.js under the repo, from source and from dist', () => {
    const expected = path.join(ROOT, 'dist', 'hooks', 'kioku-hook.js');
    expect(defaultHookClientPath()).toBe(expected);
    const compiled = pathToFileURL(path.join(ROOT, 'dist', 'main', 'core', 'integrations', 'setup', 'hook-client-path.js')).href;
    expect(defaultHookClientPath(compiled)).toBe(expected);
  });

  it('leaves a packaged app.asar for the unpacked copy plain Node can run', () => {
    const asar = `${path.sep}opt${path.sep}Kioku${path.sep}resources${path.sep}app.asar`;
    const url = pathToFileURL(path.join(asar, 'dist', 'main', 'core', 'integrations', 'setup', 'hook-client-path.js')).href;
    expect(installRootFrom(fileURLToPath(url))).toBe(asar);
    expect(defaultHookClientPath(url)).toBe(path.join(`${asar}.unpacked`, 'dist', 'hooks', 'kioku-hook.js'));
  });
});

describe('quoteForShell', () => {
  it('quotes only what needs it, escaping what POSIX shells expand inside double quotes', () => {
    expect(quoteForShell('/usr/bin/node')).toBe('/usr/bin/node');
    expect(quoteForShell('/home/a b/kioku-hook.js')).toBe('"/home/a b/kioku-hook.js"');
    expect(quoteForShell('/x/$HOME/"q"/`c`\\')).toBe('"/x/\\$HOME/\\"q\\"/\\`c\\`\\\\"');
    expect(quoteForShell('C:\\Program Files\\nodejs\\node.exe', 'win32')).toBe('"C:\\Program Files\\nodejs\\node.exe"');
  });
});
