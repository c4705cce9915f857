import type { Command } from 'commander';
import { KiokuError } from '../../../common/errors.js';
import { CLEANED_NOTICE } from '../../core/store/notes/clean-notes-text.js';
import { appendJournal, type JournalEntry } from '../../core/store/notes/journal.js';
import { searchJournal } from '../../core/store/notes/journal-search.js';
import { parseListInput } from '../../core/store/memory/memory-input.js';
import type { CliContext } from '../cli-context.js';

/**
 * `kioku journal append --text T [--tags a,b]` and `kioku journal search [Q] [--tag t] [--json]`
 * (CLI.md; DSH-3): `<memory home>/JOURNAL.jsonl`, append-only, unbounded, never injected.
 */
const DEFAULT_SEARCH_LIMIT = 20;

function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return DEFAULT_SEARCH_LIMIT;
  if (value.trim() === 'all') return undefined;
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1)
    throw new KiokuError('BAD_USAGE', `--limit "${value}" is not a whole number above 0 (or "all")`, { hint: 'e.g. --limit 20' });
  return n;
}

/** `2026-03-10T12:00:00+08:00` → `2026-03-10 12:00`; anything else as written. */
function shortTime(ts: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(ts);
  return match ? `${match[1]} ${match[2]}` : ts || '(no time)';
}

export function journalEntryText(entry: JournalEntry): string {
  const tags = entry.tags.length ? `  ${entry.tags.map((tag) => `#${tag}`).join(' ')}` : '';
  const body = entry.text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
  return `${shortTime(entry.ts)}${tags}\n${body}`;
}

export function registerJournalCommands(parent: Command, getContext: () => CliContext): void {
  parent
    .command('append')
    .description('add one entry {ts, tags, text} to JOURNAL.jsonl (no size limit; redacted and converted to Traditional Chinese first)')
    .requiredOption('--text <text>', 'the note')
    .option('--tags <a,b>', 'tags, comma-separated (a leading # is dropped)')
    .option('--json', 'print the stored entry { ts, tags, text }')
    .action(async (options: { text: string; tags?: string; json?: boolean }) => {
      const ctx = getContext();
      const result = await appendJournal(ctx.config, { text: options.text, tags: parseListInput(options.tags) });
      for (const warning of result.warnings) ctx.note(`kioku: warning: ${warning}`);
      if (result.changedByCleaning) ctx.note(`kioku: note: ${CLEANED_NOTICE}`);
      if (options.json) ctx.printJson(result.entry);
      else ctx.print(`journal: added\n${journalEntryText(result.entry)}`);
    });

  parent
    .command('search')
    .description('find journal entries by text (substring; Chinese needs no spaces; Simplified finds Traditional) and/or tag, newest first')
    .argument('[query]', 'text to look for; several words must all match; omit to list the newest entries')
    .option('--tag <tag>', 'only entries with this tag')
    .option('--limit <n>', `how many entries at most (default ${DEFAULT_SEARCH_LIMIT}; "all" for every match)`)
    .option('--json', 'print one JSON array [{ ts, tags, text }]')
    .action(async (query: string | undefined, options: { tag?: string; limit?: string; json?: boolean }) => {
      const ctx = getContext();
      const result = await searchJournal(ctx.config.paths.journalFile, { query, tag: options.tag, limit: parseLimit(options.limit) });
      if (result.corrupt) {
        ctx.note(
          `kioku: warning: skipped ${result.corrupt} line(s) of ${result.path} that are not journal entries (line ${result.corruptLines.join(', ')}${result.corrupt > result.corruptLines.length ? ', …' : ''})`,
        );
      }
      if (result.entries.length < result.matched)
        ctx.note(`kioku: showing the newest ${result.entries.length} of ${result.matched} matches (--limit all shows every one)`);
      if (options.json) {
        ctx.printJson(result.entries.map(({ ts, tags, text }) => ({ ts, tags, text })));
        return;
      }
      if (!result.entries.length) {
        const what = [query?.trim() ? `"${query.trim()}"` : '', options.tag ? `#${options.tag.replace(/^#+/, '')}` : '']
          .filter(Boolean)
          .join(' ');
        ctx.print(
          result.total
            ? `No journal entries match ${what || 'that'} (${result.total} entries searched).`
            : `The journal is empty (${result.path}).`,
        );
        return;
      }
      ctx.print(result.entries.map(journalEntryText).join('\n\n'));
    });
}
