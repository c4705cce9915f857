import { Command, CommanderError } from 'commander';
import { createCliContext, type CliContext } from './cli-context.js';
import { reportCliError } from './cli-errors.js';
import { registerMemoryCommands } from './commands/memory-commands.js';
import { registerRecallCommands } from './commands/recall-commands.js';
import { registerRoleCommands } from './commands/role-commands.js';

/**
 * The `kioku` command (CLI.md). Each command group lives in its own file under commands/ and
 * receives a lazily created context, so `kioku --help` stays instant and never touches a home.
 */
export function buildProgram(getContext: () => CliContext): Command {
  const program = new Command('kioku')
    .description('Kioku (記憶): a persona and a long-term memory for AI coding assistants')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ outputError: (text, write) => write(`kioku: ${text.replace(/^error: /, '')}`) });

  const role = program.command('role').description('roles: list, show, create, switch, export, import (ROLE-*)');
  registerRoleCommands(role, getContext);

  const memory = program.command('memory').description('memories: recall, remember, stats, forget, bonds (MEM-*)');
  registerMemoryCommands(memory, getContext);
  registerRecallCommands(memory, getContext);

  return program;
}

export async function main(argv: string[] = process.argv): Promise<number> {
  let context: CliContext | undefined;
  const getContext = () => (context ??= createCliContext());
  const program = buildProgram(getContext);
  // Every level, so that a usage error deep in `memory probe add` also exits 2, not 1.
  const overrideExits = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(overrideExits);
  };
  overrideExits(program);
  try {
    await program.parseAsync(argv);
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
