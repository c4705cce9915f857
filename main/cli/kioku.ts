import { Command, CommanderError } from 'commander';
import { createCliContext, type CliContext } from './cli-context.js';
import { reportCliError } from './cli-errors.js';

type Register = (parent: Command, getContext: () => CliContext) => void;

interface CommandGroup {
  description: string;
  /** Loaded only when the group is used: each brings heavy libraries (tar, SQLite, secretlint). */
  load: () => Promise<Register[]>;
}

/**
 * The `kioku` command (CLI.md). Each command group lives in its own files under commands/ and
 * is imported only when asked for, so `kioku role list` does not pay for SQLite and secretlint.
 */
const GROUPS: Record<string, CommandGroup> = {
  role: {
    description: 'roles: list, show, create, switch, export, import, unlock, agent (ROLE-*, LOCK-5)',
    load: async () => [
      (await import('./commands/role-commands.js')).registerRoleCommands,
      (await import('./commands/role-unlock-command.js')).registerRoleUnlockCommand,
      (await import('./commands/emoji-sheet-command.js')).registerEmojiSheetCommand,
      (await import('./commands/role-agent-command.js')).registerRoleAgentCommand,
    ],
  },
  memory: {
    description: 'memories: recall, remember, edit, pin, wrong, stats, forget, restore, bonds, mindmap (MEM-*, PM-5)',
    load: async () => [
      (await import('./commands/memory-commands.js')).registerMemoryCommands,
      (await import('./commands/recall-commands.js')).registerRecallCommands,
      (await import('./commands/memory-restore-command.js')).registerMemoryRestoreCommand,
      (await import('./commands/memory-edit-commands.js')).registerMemoryEditCommands,
      (await import('./commands/mindmap-command.js')).registerMindmapCommand,
    ],
  },
  hooks: {
    description: "install, remove or check Kioku's hooks in Claude Code, Codex and Gemini CLI (HOOK-3)",
    load: async () => [(await import('./commands/hooks-commands.js')).registerHooksCommands],
  },
  demo: {
    description: 'a guided run on a throw-away home: a sample role, a session replayed through the real hook client, the next SessionStart',
    load: async () => [(await import('./commands/demo-command.js')).registerDemoCommand],
  },
  daemon: {
    description: 'serve the hook socket and ingest the spool without the tray app (X-HEADLESS)',
    load: async () => [(await import('./commands/daemon-commands.js')).registerDaemonCommands],
  },
  sleep: {
    description: 'consolidate the inbox into long-term memories now: every role in the sleep window, --force any time (SLEEP-1…5)',
    load: async () => [(await import('./commands/sleep-commands.js')).registerSleepCommands],
  },
  nap: {
    description: 'consolidate the roles that are idle with enough inbox items (SLEEP-2)',
    load: async () => [(await import('./commands/sleep-commands.js')).registerNapCommands],
  },
  status: {
    description: 'roles, sleep state, schedule, memory counts and last sleep/forget (OPS-1)',
    load: async () => [(await import('./commands/status-commands.js')).registerStatusCommand],
  },
  diagnose: {
    description: 'why a role does not load or sleep: a ✓/✗ checklist with what to do (OPS-1)',
    load: async () => [(await import('./commands/status-commands.js')).registerDiagnoseCommand],
  },
  brief: {
    description: "run the morning brief now: the role's check scripts → one daily memory (BRIEF-1)",
    load: async () => [(await import('./commands/brief-commands.js')).registerBriefCommand],
  },
  'install-cron': {
    description: 'schedule sleep, naps and the morning brief with cron, without the tray app (OPS-2)',
    load: async () => [(await import('./commands/cron-commands.js')).registerInstallCronCommand],
  },
  'remove-cron': {
    description: "remove Kioku's cron entries and its launcher (OPS-2)",
    load: async () => [(await import('./commands/cron-commands.js')).registerRemoveCronCommand],
  },
  sync: {
    description: 'share roles and memories between machines through git: init, now, status, log',
    load: async () => [(await import('./commands/sync-commands.js')).registerSyncCommands],
  },
  facts: {
    description: 'global facts FACT.md: read with usage, update from stdin (100 lines / 8000 bytes, DSH-1)',
    load: async () => [(await import('./commands/facts-commands.js')).registerFactsCommands],
  },
  'project-memory': {
    description: "the project's MEMORY.md: read with usage, update from stdin (8000 characters, DSH-2)",
    load: async () => [(await import('./commands/project-memory-commands.js')).registerProjectMemoryCommands],
  },
  journal: {
    description: 'the journal JOURNAL.jsonl: append a note, search by text and tag, newest first (DSH-3)',
    load: async () => [(await import('./commands/journal-commands.js')).registerJournalCommands],
  },
  mcp: {
    description: 'the MCP server over stdio: recall, remember, journal, facts, project memory, personas, probes (X-MCP)',
    load: async () => [(await import('./commands/mcp-command.js')).registerMcpCommand],
  },
  import: {
    description: 'import personas and memories from seed 001 (jsc persona-memory) or seed 002 (a DSH_HOME); idempotent, --dry-run lists what would change (X-IMPORT)',
    load: async () => [(await import('./commands/import-command.js')).registerImportCommand],
  },
};

/** Build the program with the named group's commands (every group when `only` is undefined). */
export async function buildProgram(getContext: () => CliContext, only?: string): Promise<Command> {
  const program = new Command('kioku')
    .description('Kioku (記憶): a persona and a long-term memory for AI coding assistants')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ outputError: (text, write) => write(`kioku: ${text.replace(/^error: /, '')}`) });
  for (const [name, group] of Object.entries(GROUPS)) {
    const command = program.command(name).description(group.description);
    if (only === undefined || only === name) for (const register of await group.load()) register(command, getContext);
  }
  return program;
}

export async function main(argv: string[] = process.argv): Promise<number> {
  let context: CliContext | undefined;
  const getContext = () => (context ??= createCliContext());
  const first = argv[2];
  try {
    const program = await buildProgram(getContext, first !== undefined && first in GROUPS ? first : undefined);
    // Every level, so that a usage error deep in `memory probe add` also exits 2, not 1.
    const overrideExits = (command: Command) => {
      command.exitOverride();
      command.commands.forEach(overrideExits);
    };
    overrideExits(program);
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
