import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';

/**
 * The top-level commands of `kioku` (CLI.md), each imported only when the command line names it;
 * `description` and `usage` let the top-level help show them without loading the group.
 * Design notes: docs/design-notes.md, "main/cli/command-groups.ts".
 */
export type Register = (parent: Command, getContext: () => CliContext) => void;

export interface CommandGroup {
  /** As the top-level help shows it (a leaf group's register function sets the same text). */
  description: string;
  /** What the top-level help shows after the name: ' [options]', ' [options] <dir>', or ''. */
  usage: string;
  /** Every command of the group: each module brings its own libraries (tar, SQLite, secretlint). */
  load: () => Promise<Register[]>;
  /** Subcommands that can be registered alone, for a command line that names one of them. */
  subcommands?: Record<string, () => Promise<Register[]>>;
}

const recallCommands = async (): Promise<Register[]> => [(await import('./commands/recall-commands.js')).registerRecallCommands];

export const GROUPS: Record<string, CommandGroup> = {
  role: {
    description: 'roles: list, show, create, switch, export, import, unlock, agent',
    usage: '',
    load: async () => [
      (await import('./commands/role-commands.js')).registerRoleCommands,
      (await import('./commands/role-unlock-command.js')).registerRoleUnlockCommand,
      (await import('./commands/emoji-sheet-command.js')).registerEmojiSheetCommand,
      (await import('./commands/role-agent-command.js')).registerRoleAgentCommand,
    ],
  },
  memory: {
    description: 'memories: recall, remember, edit, pin, wrong, stats, forget, restore, bonds, mindmap',
    usage: '',
    load: async () => [
      (await import('./commands/memory-commands.js')).registerMemoryCommands,
      ...(await recallCommands()),
      (await import('./commands/memory-restore-command.js')).registerMemoryRestoreCommand,
      (await import('./commands/memory-edit-commands.js')).registerMemoryEditCommands,
      (await import('./commands/mindmap-command.js')).registerMindmapCommand,
    ],
    // `memory recall` is what the assistant runs whenever it needs the past: it must not pay for
    // the group's other commands (secretlint, OpenCC, the memory writers).
    subcommands: { recall: recallCommands, reindex: recallCommands },
  },
  hooks: {
    description: "install, remove or check Kioku's hooks in Claude Code, Codex and Gemini CLI",
    usage: '',
    load: async () => [(await import('./commands/hooks-commands.js')).registerHooksCommands],
  },
  demo: {
    description:
      'a guided run on a throw-away home: a sample role, a session replayed through the real hooks, and what the next session would load',
    usage: ' [options]',
    load: async () => [(await import('./commands/demo-command.js')).registerDemoCommand],
  },
  daemon: {
    description: 'serve the hook socket and ingest the spool without the tray app',
    usage: ' [options]',
    load: async () => [(await import('./commands/daemon-commands.js')).registerDaemonCommands],
  },
  sleep: {
    description: 'consolidate the inbox into long-term memories now; every role unless --role or ROLE_NAME',
    usage: ' [options]',
    load: async () => [(await import('./commands/sleep-commands.js')).registerSleepCommands],
  },
  nap: {
    description: 'consolidate the roles that are idle with a full enough inbox, at any time of day',
    usage: ' [options]',
    load: async () => [(await import('./commands/sleep-commands.js')).registerNapCommands],
  },
  status: {
    description: 'roles, sleep state, schedule, memory counts and last sleep/forget',
    usage: ' [options]',
    load: async () => [(await import('./commands/status-commands.js')).registerStatusCommand],
  },
  diagnose: {
    description: 'why a role does not load or sleep: a ✓/✗ checklist with what to do for each ✗',
    usage: '',
    load: async () => [(await import('./commands/status-commands.js')).registerDiagnoseCommand],
  },
  brief: {
    description: 'run the morning brief now: <role home>/<ID>.checks/*.sh, what they print kept as one daily memory',
    usage: ' [options]',
    load: async () => [(await import('./commands/brief-commands.js')).registerBriefCommand],
  },
  'install-cron': {
    description:
      "schedule sleep, naps and the morning brief with cron, without the tray app; only Kioku's own lines (# kioku:…) are touched",
    usage: ' [options]',
    load: async () => [(await import('./commands/cron-commands.js')).registerInstallCronCommand],
  },
  'remove-cron': {
    description: "remove Kioku's cron entries (# kioku:…) and its launcher; every other line stays as it is",
    usage: ' [options]',
    load: async () => [(await import('./commands/cron-commands.js')).registerRemoveCronCommand],
  },
  sync: {
    description: 'share roles and memories between machines through git: init, now, status, log',
    usage: '',
    load: async () => [(await import('./commands/sync-commands.js')).registerSyncCommands],
  },
  facts: {
    description: 'global facts FACT.md: read with usage, update from stdin (100 lines / 8000 bytes)',
    usage: '',
    load: async () => [(await import('./commands/facts-commands.js')).registerFactsCommands],
  },
  'project-memory': {
    description: "the project's MEMORY.md: read with usage, update from stdin (8000 characters)",
    usage: '',
    load: async () => [(await import('./commands/project-memory-commands.js')).registerProjectMemoryCommands],
  },
  journal: {
    description: 'the journal JOURNAL.jsonl: append a note, search by text and tag, newest first',
    usage: '',
    load: async () => [(await import('./commands/journal-commands.js')).registerJournalCommands],
  },
  mcp: {
    description: 'serve Kioku to an assistant over MCP (stdio): recall, remember, bonds, journal, facts, project memory, personas, probes',
    usage: ' [options]',
    load: async () => [(await import('./commands/mcp-command.js')).registerMcpCommand],
  },
  import: {
    description: 'import personas and memories from persona-memory folders or a dsh-persona-memory home (DSH_HOME); idempotent',
    usage: ' [options] <dir>',
    load: async () => [(await import('./commands/import-command.js')).registerImportCommand],
  },
};

/**
 * What to load for a command line: the group it names (`kioku memory …`, `kioku help memory`),
 * only one subcommand when the line names one that stands alone, nothing for `--help` or a typo.
 */
export function commandsToLoad(argv: readonly string[]): { group: string; subcommand?: string } | undefined {
  const named = argv[2] === 'help' ? argv[3] : argv[2];
  if (named === undefined || !Object.hasOwn(GROUPS, named)) return undefined;
  const sub = argv[2] === 'help' ? undefined : argv[3];
  if (sub !== undefined && GROUPS[named]!.subcommands && Object.hasOwn(GROUPS[named]!.subcommands!, sub))
    return { group: named, subcommand: sub };
  return { group: named };
}
