import type { Command } from 'commander';
import { CLEANED_NOTICE } from '../../core/store/notes/clean-notes-text.js';
import { PROJECT_MEMORY_MAX_CHARS, projectMemoryUsageText } from '../../core/store/notes/notes-limits.js';
import { readProjectMemoryFile, updateProjectMemory } from '../../core/store/notes/project-memory.js';
import type { CliContext } from '../cli-context.js';
import { readStdinText } from './read-stdin.js';

/**
 * `kioku project-memory read | update [--project DIR]` (CLI.md; DSH-2): `<DIR>/MEMORY.md`, DIR
 * defaulting to the current folder. Reading never creates the file (DSH-2: injected only if it
 * exists, never created automatically); `update` is the explicit ask that may create it.
 */
const PROJECT_HELP = 'the project folder (default: the current folder)';

export function registerProjectMemoryCommands(parent: Command, getContext: () => CliContext): void {
  parent
    .command('read')
    .description(`print the project's MEMORY.md with its usage (limit: ${PROJECT_MEMORY_MAX_CHARS} characters)`)
    .option('--project <DIR>', PROJECT_HELP)
    .option('--json', 'print { project, path, exists, text, usage: { chars, maxChars, over } }')
    .action((options: { project?: string; json?: boolean }) => {
      const ctx = getContext();
      const memory = readProjectMemoryFile(options.project ?? process.cwd());
      if (memory.usage.over)
        ctx.note(`kioku: warning: ${memory.path} is over its limit; the next update must be shorter (move details to the journal)`);
      if (options.json) {
        const { project, path, exists, text, usage } = memory;
        ctx.printJson({ project, path, exists, text, usage });
        return;
      }
      if (!memory.exists) {
        ctx.print(
          `No project memory: ${memory.path} does not exist (it is never created by reading).\nCreate it with \`kioku project-memory update\` (the whole text on stdin).`,
        );
        return;
      }
      ctx.note(`${memory.path}: ${projectMemoryUsageText(memory.usage)}`);
      ctx.print(memory.text);
    });

  parent
    .command('update')
    .description(
      `replace (or create) the project's MEMORY.md with the text on stdin; refused, file unchanged, above ${PROJECT_MEMORY_MAX_CHARS} characters`,
    )
    .option('--project <DIR>', PROJECT_HELP)
    .option('--json', 'print { project, path, created, usage, changedByCleaning, warnings }')
    .action(async (options: { project?: string; json?: boolean }) => {
      const ctx = getContext();
      const result = await updateProjectMemory(options.project ?? process.cwd(), await readStdinText());
      for (const warning of result.warnings) ctx.note(`kioku: warning: ${warning}`);
      if (result.changedByCleaning) ctx.note(`kioku: note: ${CLEANED_NOTICE}`);
      if (options.json) {
        const { project, path, created, usage, changedByCleaning, warnings } = result;
        ctx.printJson({ project, path, created, usage, changedByCleaning, warnings });
      } else {
        ctx.print(`${result.created ? 'created' : 'updated'} ${result.path}: ${projectMemoryUsageText(result.usage)}`);
      }
    });
}
