import type { Command } from 'commander';
import { KiokuError } from '../../../common/errors.js';
import { editMemory, type EditResult, type MemoryChanges } from '../../core/store/memory/edit-memory.js';
import { markMemoryWrong } from '../../core/store/memory/mark-wrong.js';
import { parseListInput } from '../../core/store/memory/memory-input.js';
import type { CliContext } from '../cli-context.js';
import { readStdinText } from './read-stdin.js';
import { resolveExistingMemoryRole } from './existing-memory-role.js';

/**
 * `kioku memory edit|pin|unpin|wrong <id>` (issue 16): one memory corrected by hand, through the
 * same core functions the app's timeline uses. `memory forget <id>` and `memory restore` are the
 * forget/undo pair (memory-commands.ts, memory-restore-command.ts).
 */
const ROLE_HELP = 'role ID (default: ROLE_NAME, then the active role)';

interface EditOptions {
  role?: string;
  json?: boolean;
  summary?: string;
  body?: string;
  bodyStdin?: boolean;
  tags?: string;
  priority?: string;
  category?: string;
  expires?: string;
}

function report(ctx: CliContext, role: string, result: EditResult, json: boolean | undefined, verb: string): void {
  for (const warning of result.warnings) ctx.note(`kioku: warning: ${warning}`);
  if (json) {
    ctx.printJson({
      role,
      id: result.memory.id,
      category: result.memory.category,
      path: result.memory.path,
      changed: result.changed,
      ...(result.movedFrom ? { movedFrom: result.movedFrom } : {}),
      warnings: result.warnings,
    });
  } else if (result.changed.length === 0) ctx.print(`${role}: ${result.memory.id} already as asked; nothing written`);
  else ctx.print(`${role}: ${verb} ${result.memory.category}/${result.memory.id} (${result.changed.join(', ')}) → ${result.memory.path}`);
}

async function changesFrom(options: EditOptions): Promise<MemoryChanges> {
  if (options.body !== undefined && options.bodyStdin) {
    throw new KiokuError('BAD_USAGE', '--body and --body-stdin were both given', { hint: 'pass the body one way' });
  }
  const changes: MemoryChanges = {};
  if (options.summary !== undefined) changes.summary = options.summary;
  if (options.body !== undefined) changes.body = options.body;
  if (options.bodyStdin) changes.body = await readStdinText();
  if (options.tags !== undefined) changes.tags = parseListInput(options.tags);
  if (options.priority !== undefined) changes.priority = options.priority;
  if (options.category !== undefined) changes.category = options.category;
  if (options.expires !== undefined) changes.expires = options.expires === 'none' ? '' : options.expires;
  if (Object.keys(changes).length === 0) {
    throw new KiokuError(
      'BAD_USAGE',
      'nothing to change: give at least one of --summary, --body, --body-stdin, --tags, --priority, --category, --expires',
      {
        hint: 'e.g. kioku memory edit <id> --priority 5',
      },
    );
  }
  return changes;
}

export function registerMemoryEditCommands(parent: Command, getContext: () => CliContext): void {
  parent
    .command('edit')
    .description('correct one memory: summary, body, tags, priority, category or expiry; rewritten atomically (moved on a category change)')
    .argument('<id>', 'the memory ID (as recall or the app shows it)')
    .option('--summary <text>', 'one sentence')
    .option('--body <text>', 'the whole body (Markdown)')
    .option('--body-stdin', 'read the whole body from stdin')
    .option('--tags <a,b>', 'tags, comma-separated (replaces them; "" for none)')
    .option('--priority <n>', 'priority 1–5')
    .option('--category <category>', 'inbox, important, interest, news, skill, daily or other')
    .option('--expires <date|condition|none>', 'a date (YYYY-MM-DD), a condition text, or none to remove it')
    .option('--role <ID>', ROLE_HELP)
    .option('--json', 'print one JSON object')
    .action(async (id: string, options: EditOptions) => {
      const ctx = getContext();
      const role = resolveExistingMemoryRole(ctx.config, options.role);
      const result = await editMemory(ctx.config, role, id, await changesFrom(options));
      report(ctx, role, result, options.json, 'edited');
    });

  for (const [name, pinned] of [
    ['pin', true],
    ['unpin', false],
  ] as const) {
    parent
      .command(name)
      .description(
        pinned ? 'pin one memory: never forgotten, never faded, loaded before any unpinned memory' : 'take the pin off one memory',
      )
      .argument('<id>', 'the memory ID')
      .option('--role <ID>', ROLE_HELP)
      .option('--json', 'print one JSON object')
      .action(async (id: string, options: { role?: string; json?: boolean }) => {
        const ctx = getContext();
        const role = resolveExistingMemoryRole(ctx.config, options.role);
        report(ctx, role, await editMemory(ctx.config, role, id, { pinned }), options.json, pinned ? 'pinned' : 'unpinned');
      });
  }

  parent
    .command('wrong')
    .description('mark one memory as wrong: kept as history, labelled 〔已更正〕, never loaded as current again')
    .argument('<id>', 'the memory ID')
    .option('--correction <text>', 'what is right instead; written as a new memory of the same kind')
    .option('--role <ID>', ROLE_HELP)
    .option('--json', 'print one JSON object')
    .action(async (id: string, options: { role?: string; json?: boolean; correction?: string }) => {
      const ctx = getContext();
      const role = resolveExistingMemoryRole(ctx.config, options.role);
      const result = await markMemoryWrong(ctx.config, role, id, options.correction);
      for (const warning of result.warnings) ctx.note(`kioku: warning: ${warning}`);
      const correction = result.correction ? { id: result.correction.id, path: result.correction.path } : undefined;
      if (options.json) ctx.printJson({ role, id: result.memory.id, path: result.memory.path, ...(correction ? { correction } : {}) });
      else
        ctx.print(
          `${role}: marked ${result.memory.id} wrong${correction ? `; the correction is ${correction.id} → ${correction.path}` : ''}`,
        );
    });
}
