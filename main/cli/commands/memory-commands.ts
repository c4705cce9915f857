import type { Command } from 'commander';
import { KiokuError } from '../../../common/errors.js';
import type { MemoryLoadProblem } from '../../../common/memory.js';
import { readBonds } from '../../core/store/memory/bonds.js';
import { forgetMemories } from '../../core/store/memory/forget.js';
import { findMemory } from '../../core/store/memory/find-memory.js';
import { forgetMemory } from '../../core/store/memory/forget-one.js';
import { parseListInput } from '../../core/store/memory/memory-input.js';
import { listMemoryRoles } from '../../core/store/memory/memory-layout.js';
import { CONSENT_VALUES, setPersonalMemoryConsent, type PersonalMemoryConsent } from '../../core/store/memory/memory-state.js';
import { memoryStats } from '../../core/store/memory/memory-stats.js';
import { migrateMemories } from '../../core/store/memory/migrate-memories.js';
import { rememberText } from '../../core/engine/capture/remember.js';
import { seedMemory } from '../../core/store/memory/seed-memory.js';
import { sessionProject } from '../../core/engine/context/session-project.js';
import type { CliContext } from '../cli-context.js';
import { bondsText, forgetText, migrateText, statsText } from './memory-output.js';
import { registerProbeCommands } from './memory-probe-commands.js';
import { resolveExistingMemoryRole } from './existing-memory-role.js';
import { resolveMemoryRole } from './memory-role.js';

interface RoleOption {
  role?: string;
  json?: boolean;
}

const ROLE_HELP = 'role ID (default: ROLE_NAME, then the active role)';

function reportProblems(ctx: CliContext, problems: readonly MemoryLoadProblem[]): void {
  for (const problem of problems) ctx.note(`kioku: warning: cannot read ${problem.path}: ${problem.message}`);
}

function reportWarnings(ctx: CliContext, warnings: readonly string[]): void {
  for (const warning of warnings) ctx.note(`kioku: warning: ${warning}`);
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function parseCount(value: string): number {
  const n = Number(value);
  if (Number.isInteger(n) && n > 0) return n;
  throw new KiokuError('BAD_USAGE', `--count "${value}" must be a whole number above 0`, { hint: 'e.g. --count 15' });
}

/** `kioku memory forget <id>` (issue 16): one memory to archive/forgotten/ now, whatever its age. */
function forgetOne(ctx: CliContext, role: string, id: string, options: { dryRun?: boolean; json?: boolean }): void {
  if (options.dryRun) {
    const memory = findMemory(ctx.config.paths.memoryHome, role, id);
    if (options.json) ctx.printJson({ role, id: memory.id, category: memory.category, path: memory.path, dryRun: true });
    else ctx.print(`${role}: would forget ${memory.category}/${memory.id} (${memory.path})`);
    return;
  }
  const result = forgetMemory(ctx.config, role, id);
  if (options.json) ctx.printJson({ ...result, dryRun: false });
  else
    ctx.print(
      `${role}: forgot ${result.category}/${result.id} → ${result.archive}\nundo: kioku memory restore ${result.name} --role ${role}`,
    );
}

/** `kioku memory …` (CLI.md) except recall/reindex, which live in recall-commands.ts. */
export function registerMemoryCommands(parent: Command, getContext: () => CliContext): void {
  parent
    .command('remember')
    .description('write a memory now, silently; redacted and converted to Traditional Chinese first')
    .requiredOption('--text <text>', 'what to remember')
    .option('--role <ID>', ROLE_HELP)
    .option('--category <category>', 'inbox (default), important, interest, news, skill, daily or other')
    .option('--type <type>', 'memory_type: semantic, episodic, procedural, emotional, preference or rule')
    .option('--priority <n>', 'priority 1–5 (default 4)')
    .option('--tags <a,b>', 'tags, comma-separated')
    .option('--expires <date|condition>', 'a date (YYYY-MM-DD) or a condition text such as 本工作階段')
    .option('--json', 'print the written memory as JSON')
    .action(
      async (
        options: RoleOption & { text: string; category?: string; type?: string; priority?: string; tags?: string; expires?: string },
      ) => {
        const ctx = getContext();
        const role = resolveExistingMemoryRole(ctx.config, options.role);
        const project = sessionProject(ctx.config.env, process.cwd());
        const { memory, warnings } = await rememberText(ctx.config, role, {
          ...options,
          tags: parseListInput(options.tags),
          ...(project ? { project } : {}),
        });
        reportWarnings(ctx, warnings);
        if (options.json) ctx.printJson({ id: memory.id, category: memory.category, path: memory.path, warnings });
      },
    );

  parent
    .command('seed')
    .description('write a consolidated memory directly, e.g. background for a new role; body on stdin')
    .requiredOption('--category <category>', 'important, interest, news, skill, daily or other')
    .requiredOption('--summary <text>', 'one sentence')
    .option('--tags <a,b>', 'tags, comma-separated')
    .option('--source <url>', 'where the background comes from')
    .option('--role <ID>', ROLE_HELP)
    .option('--json', 'print the written memory as JSON')
    .action(async (options: RoleOption & { category: string; summary: string; tags?: string; source?: string }) => {
      const ctx = getContext();
      const role = resolveExistingMemoryRole(ctx.config, options.role);
      const body = await readStdin();
      const { memory, warnings } = await seedMemory(ctx.config, role, { ...options, tags: parseListInput(options.tags), body });
      reportWarnings(ctx, warnings);
      if (options.json) ctx.printJson({ id: memory.id, category: memory.category, path: memory.path, warnings });
      else ctx.print(memory.path);
    });

  parent
    .command('stats')
    .description('count memories per category (inbox included) and per memory type')
    .option('--role <ID>', ROLE_HELP)
    .option('--json', 'print one JSON object')
    .action((options: RoleOption) => {
      const ctx = getContext();
      const stats = memoryStats(ctx.config.paths.memoryHome, resolveMemoryRole(ctx.config, options.role), ctx.config.clock.now());
      reportProblems(ctx, stats.problems);
      if (options.json) ctx.printJson(stats);
      else ctx.print(statsText(stats));
    });

  parent
    .command('forget')
    .description('archive faded daily/other memories and expired ones to archive/forgotten/; with an ID, that one memory now')
    .argument('[id]', 'forget this one memory (undo: `kioku memory restore <name>`)')
    .option('--role <ID>', ROLE_HELP)
    .option('--dry-run', 'list what would be forgotten and change nothing')
    .option('--json', 'print one JSON object')
    .action((id: string | undefined, options: RoleOption & { dryRun?: boolean }) => {
      const ctx = getContext();
      const role = resolveExistingMemoryRole(ctx.config, options.role);
      if (id !== undefined) return forgetOne(ctx, role, id, options);
      const result = forgetMemories(ctx.config, role, { dryRun: Boolean(options.dryRun) });
      reportProblems(ctx, result.problems);
      if (options.json) ctx.printJson(result);
      else ctx.print(forgetText(result, ctx.config.paths.memoryHome));
    });

  parent
    .command('bonds')
    .description('show the relationship history (BONDS.md), newest first')
    .option('--role <ID>', ROLE_HELP)
    .option('--count <n>', 'how many (default: all)', parseCount)
    .option('--json', 'print one JSON array')
    .action((options: RoleOption & { count?: number }) => {
      const ctx = getContext();
      const role = resolveMemoryRole(ctx.config, options.role);
      const bonds = readBonds(ctx.config.paths.memoryHome, role, options.count);
      if (options.json) ctx.printJson(bonds);
      else ctx.print(bondsText(role, bonds));
    });

  parent
    .command('consent')
    .description('record whether personal details may be remembered')
    .requiredOption('--value <value>', CONSENT_VALUES.join(' | '))
    .option('--role <ID>', ROLE_HELP)
    .option('--json', 'print one JSON object')
    .action((options: RoleOption & { value: string }) => {
      const ctx = getContext();
      const value = options.value.trim();
      if (!(CONSENT_VALUES as readonly string[]).includes(value)) {
        throw new KiokuError('BAD_USAGE', `--value "${options.value}" is not one of ${CONSENT_VALUES.join(', ')}`, {
          hint: 'e.g. --value accepted',
        });
      }
      const role = resolveExistingMemoryRole(ctx.config, options.role);
      const { state, problems } = setPersonalMemoryConsent(
        ctx.config.paths.memoryHome,
        role,
        ctx.config.clock,
        value as PersonalMemoryConsent,
      );
      reportWarnings(ctx, problems);
      if (options.json) ctx.printJson({ role, personal_memory_consent: state.personal_memory_consent });
      else ctx.print(`${role}: personal_memory_consent = ${state.personal_memory_consent}`);
    });

  registerProbeCommands(parent.command('probe').description('probes of fuzzy memories: add, confirm, deny, audit'), getContext);

  parent
    .command('migrate')
    .description('bring old memory files up to the current format, in place and idempotently')
    .option('--role <ID>', ROLE_HELP)
    .option('--all', 'every role folder in the memory home (reports counts only)')
    .option('--dry-run', 'report what would change and change nothing')
    .option('--json', 'print one JSON object')
    .action((options: RoleOption & { all?: boolean; dryRun?: boolean }) => {
      const ctx = getContext();
      const roles = options.all ? listMemoryRoles(ctx.config.paths.memoryHome) : [resolveExistingMemoryRole(ctx.config, options.role)];
      const result = migrateMemories(ctx.config, roles, { dryRun: Boolean(options.dryRun) });
      for (const role of result.roles) reportProblems(ctx, role.problems);
      if (options.json) {
        const roleJson = result.roles.map(({ role, files, changed, paths }) =>
          options.all ? { role, files, changed } : { role, files, changed, paths },
        );
        ctx.printJson({ dryRun: result.dryRun, roles: roleJson });
      } else ctx.print(migrateText(result, !options.all));
    });
}
