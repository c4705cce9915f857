import { Command, CommanderError, Help } from 'commander';
import type { CliContext } from './cli-context.js';
import { reportCliError } from './cli-errors.js';
import { GROUPS, commandsToLoad } from './command-groups.js';
import { KIOKU_VERSION } from './cli-version.js';
import { traceFlush, traceMark } from '../core/platform/config/trace.js';

/** Which commands to register: every one (undefined), one group by name, or one group or subcommand of it ({} for none). */
export type ProgramScope = string | { group?: string; subcommand?: string } | undefined;

/**
 * Build the program. Groups outside `scope` are registered as bare names that print in the
 * top-level help exactly as the loaded group would (command-groups.ts): `kioku --help` and
 * `kioku --version` load no command module at all.
 */
export async function buildProgram(getContext: () => CliContext, scope?: ProgramScope): Promise<Command> {
  const only = typeof scope === 'string' ? { group: scope } : scope;
  const program = new Command('kioku')
    .description('Kioku (記憶): a persona and a long-term memory for AI coding assistants')
    .version(KIOKU_VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ outputError: (text, write) => write(`kioku: ${text.replace(/^error: /, '')}`) });
  const stubs = new Set<Command>();
  for (const [name, group] of Object.entries(GROUPS)) {
    const command = program.command(name).description(group.description);
    const loading = only === undefined || only.group === name;
    if (!loading) {
      stubs.add(command);
      continue;
    }
    const sub = only?.subcommand;
    const registers = sub !== undefined && group.subcommands?.[sub] ? await group.subcommands[sub]() : await group.load();
    for (const register of registers) register(command, getContext);
  }
  if (stubs.size) {
    program.configureHelp({
      subcommandTerm(cmd) {
        return stubs.has(cmd) ? `${cmd.name()}${GROUPS[cmd.name()]!.usage}` : Help.prototype.subcommandTerm.call(this, cmd);
      },
    });
  }
  return program;
}

export async function main(argv: string[] = process.argv): Promise<number> {
  let context: CliContext | undefined;
  const scope = commandsToLoad(argv);
  // Settings, paths and the logger only for a command line that can run a command (not for --help).
  const createCliContext = scope ? (await import('./cli-context.js')).createCliContext : undefined;
  const getContext = () => (context ??= createCliContext!());
  traceMark('cli-loaded');
  try {
    const program = await buildProgram(getContext, scope ?? {});
    traceMark('commands-registered');
    // Every level, so that a usage error deep in `memory probe add` also exits 2, not 1.
    const overrideExits = (command: Command) => {
      command.exitOverride();
      command.commands.forEach(overrideExits);
    };
    overrideExits(program);
    await program.parseAsync(argv);
    traceMark('done');
    traceFlush(argv.slice(2, 4).join(' '));
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0; usage errors are exit 2 (CLI.md).
      if (error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      return 2;
    }
    return reportCliError(error, (text) => process.stderr.write(text));
  }
}
