import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../test/helpers/temp-home.js';
import type { CliContext } from '../cli-context.js';
import { registerHooksCommands } from './hooks-commands.js';

let home: TempHome;
let out: string[];
let err: string[];

function context(): CliContext {
  return {
    config: home.config(),
    logger: { debug() {}, info() {}, warn() {}, error() {} } as unknown as CliContext['logger'],
    print: (text) => void out.push(text),
    printJson: (value) => void out.push(JSON.stringify(value)),
    note: (text) => void err.push(text),
    interactive: false,
  };
}

async function run(...args: string[]): Promise<string> {
  const program = new Command('kioku').exitOverride();
  const hooks = program.command('hooks');
  registerHooksCommands(hooks, context);
  out = [];
  err = [];
  await program.parseAsync(['node', 'kioku', 'hooks', ...args]);
  return out.join('\n');
}

beforeEach(() => {
  home = makeTempHome();
});
afterEach(() => home.cleanup());

describe('kioku hooks', () => {
  it('installs into the assistants found in HOME, reports status, and uninstalls', async () => {
    fs.mkdirSync(path.join(home.root, '.claude'));
    fs.mkdirSync(path.join(home.root, '.gemini'));
    const installed = await run('install');
    expect(installed).toMatch(/^claude: installed 7 hooks — .*\.claude\/settings\.json$/m);
    expect(installed).toMatch(/^gemini: installed 5 hooks/m);
    expect(installed).not.toMatch(/codex/);
    expect(fs.existsSync(path.join(home.root, '.codex'))).toBe(false);

    expect(await run('install', '--assistant', 'claude')).toMatch(/claude: already installed \(7 hooks\)/);

    const status = JSON.parse(await run('status', '--json')) as { assistant: string; installed: boolean; complete: boolean }[];
    expect(status.map((s) => [s.assistant, s.installed, s.complete])).toEqual([
      ['claude', true, true],
      ['codex', false, false],
      ['gemini', true, true],
    ]);
    expect(await run('status', '--assistant', 'gemini')).toMatch(/^gemini: installed \(5\/5 events\)/);

    expect(await run('uninstall')).toMatch(/claude: removed 7 hooks[\s\S]*codex: no Kioku hooks to remove[\s\S]*gemini: removed 5 hooks/);
    expect(JSON.parse(fs.readFileSync(path.join(home.root, '.claude', 'settings.json'), 'utf8'))).toEqual({ hooks: {} });
  });

  it('refuses an unknown assistant, and install with none found', async () => {
    await expect(run('status', '--assistant', 'copilot')).rejects.toThrow(/unknown assistant "copilot"/);
    await expect(run('install')).rejects.toThrow(/found no ~\/\.claude/);
  });
});
