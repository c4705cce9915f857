import fs from 'node:fs';
import type { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GROUPS, commandsToLoad } from '../../main/cli/command-groups.js';
import { buildProgram } from '../../main/cli/kioku.js';
import { runKioku } from '../helpers/run-cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * `kioku` loads only the commands a command line names (command-groups.ts); everything else is a
 * bare name that must print exactly as the loaded command does. Every help text, usage error and
 * version line is compared here with the full command tree, so a stub cannot drift from it.
 */
const noContext = () => {
  throw new Error('no command action runs in this test');
};

interface Printed {
  stdout: string;
  stderr: string;
  outcome: string;
}

/** Parse `kioku <args>` with `program`, capturing what commander prints and how it ends. */
async function parse(program: Command, args: string[]): Promise<Printed> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((text) => out.push(String(text)) > 0);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((text) => err.push(String(text)) > 0);
  const exits = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(exits);
  };
  exits(program);
  let outcome = 'parsed';
  try {
    await program.parseAsync(['node', 'kioku', ...args]);
  } catch (error) {
    const { code, exitCode } = error as { code?: string; exitCode?: number };
    outcome = code ? `${code} (exit ${exitCode})` : `threw ${(error as Error).message}`;
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  return { stdout: out.join(''), stderr: err.join(''), outcome };
}

const lazy = async (args: string[]) => parse(await buildProgram(noContext, commandsToLoad(['node', 'kioku', ...args]) ?? {}), args);
const full = async (args: string[]) => parse(await buildProgram(noContext), args);

/** Command lines that print without running anything: help, versions and usage errors, at every level that can be lazy. */
function commandLines(): string[][] {
  const lines: string[][] = [[], ['--help'], ['-h'], ['help'], ['--version'], ['-V'], ['bogus'], ['rol'], ['--bogus']];
  for (const [name, group] of Object.entries(GROUPS)) {
    lines.push([name, '--help'], ['help', name], [name, '--bogus-option']);
    for (const sub of Object.keys(group.subcommands ?? {}))
      lines.push([name, sub, '--help'], [name, sub], [name, sub, '--bogus-option'], [name, sub, 'extra']);
  }
  return lines;
}

const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

describe('kioku loads only the commands a command line names', () => {
  it('prints every help, version and usage error exactly as the full command tree does', async () => {
    for (const args of commandLines()) {
      const [expected, got] = [await full(args), await lazy(args)];
      expect({ args, ...got }).toEqual({ args, ...expected });
    }
  });

  it('registers no command of any group for `kioku --help`, and only recall and reindex for `kioku memory recall`', async () => {
    const top = await buildProgram(noContext, commandsToLoad(['node', 'kioku', '--help']) ?? {});
    expect(top.commands.filter((group) => group.commands.length > 0 || group.options.length > 0).map((group) => group.name())).toEqual([]);
    const recall = await buildProgram(noContext, commandsToLoad(['node', 'kioku', 'memory', 'recall', '--query', 'x']) ?? {});
    expect(recall.commands.find((group) => group.name() === 'memory')!.commands.map((command) => command.name())).toEqual([
      'recall',
      'reindex',
    ]);
    expect(recall.commands.filter((group) => group.name() !== 'memory' && group.commands.length > 0)).toEqual([]);
  });

  it('the built `kioku --version`, `-V` and `--help` print what commander prints for the full tree, without a home', async () => {
    // A home that does not exist: none of these may touch it.
    const home = makeTempHome();
    homes.push(home);
    const env = { ...home.env, ROLE_HOME: `${home.root}/missing/roles`, ROLE_MEMORY_HOME: `${home.root}/missing/memory` };
    for (const args of [['--version'], ['-V'], ['--help']]) {
      const expected = await full(args);
      const got = runKioku(args, env);
      expect({ args, code: got.code, stdout: got.stdout, stderr: got.stderr }).toEqual({
        args,
        code: 0,
        stdout: expected.stdout,
        stderr: expected.stderr,
      });
    }
    expect(runKioku(['--version'], env).stdout).toBe('0.1.0\n');
    expect(fs.existsSync(`${home.root}/missing`)).toBe(false);
  });
});
