import type { Command } from 'commander';
import { CLEANED_NOTICE } from '../../core/store/notes/clean-notes-text.js';
import { FACT_MAX_BYTES, FACT_MAX_LINES, factsUsageText } from '../../core/store/notes/notes-limits.js';
import { readFacts, updateFacts } from '../../core/store/notes/facts-file.js';
import type { CliContext } from '../cli-context.js';
import { readStdinText } from './read-stdin.js';

/**
 * `kioku facts read | update` (CLI.md; DSH-1): the global facts in `<memory home>/FACT.md`.
 * DSH-1 limits it to 100 lines and 8000 bytes, both at once — reads report usage against both
 * limits (with a warning when a hand edit went over), updates are refused whole above either one.
 */
export function registerFactsCommands(parent: Command, getContext: () => CliContext): void {
  parent
    .command('read')
    .description(`print FACT.md with its usage (limits: ${FACT_MAX_LINES} lines and ${FACT_MAX_BYTES} UTF-8 bytes)`)
    .option('--json', 'print { path, exists, text, usage: { lines, maxLines, bytes, maxBytes, over } }')
    .action((options: { json?: boolean }) => {
      const ctx = getContext();
      const facts = readFacts(ctx.config.paths);
      if (facts.usage.over.length) {
        ctx.note(`kioku: warning: ${facts.path} is over its limit (${facts.usage.over.join(' and ')}); the next update must be shorter`);
      }
      if (options.json) {
        ctx.printJson({ path: facts.path, exists: facts.exists, text: facts.text, usage: facts.usage });
        return;
      }
      if (!facts.exists) {
        ctx.print(
          `No global facts yet: ${facts.path} does not exist (${factsUsageText(facts.usage)}).\nWrite them with \`kioku facts update\` (the whole text on stdin).`,
        );
        return;
      }
      ctx.note(`${facts.path}: ${factsUsageText(facts.usage)}`);
      ctx.print(facts.text);
    });

  parent
    .command('update')
    .description(
      `replace FACT.md with the text on stdin; refused, file unchanged, above ${FACT_MAX_LINES} lines or ${FACT_MAX_BYTES} UTF-8 bytes`,
    )
    .option('--json', 'print { path, created, usage, changedByCleaning, warnings }')
    .action(async (options: { json?: boolean }) => {
      const ctx = getContext();
      const result = await updateFacts(ctx.config.paths, await readStdinText());
      for (const warning of result.warnings) ctx.note(`kioku: warning: ${warning}`);
      if (result.changedByCleaning) ctx.note(`kioku: note: ${CLEANED_NOTICE}`);
      if (options.json) {
        const { path, created, usage, changedByCleaning, warnings } = result;
        ctx.printJson({ path, created, usage, changedByCleaning, warnings });
      } else {
        ctx.print(`${result.created ? 'created' : 'updated'} ${result.path}: ${factsUsageText(result.usage)} (new sessions load it)`);
      }
    });
}
