import type { JournalAppended, JournalSearchView, JournalTags, UiParsedRequest } from '../../../../common/ui-contract.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { appendJournal, readJournal } from '../../store/notes/journal.js';
import { normalizeForSearch, searchJournal } from '../../store/notes/journal-search.js';

/**
 * The journal view (DSH-3): append, search (substring, Chinese without spaces, newest first) and
 * the tags to filter by — the same code as `kioku journal`, so an entry written here is found
 * there and the other way round. JOURNAL.jsonl is only ever appended to.
 */
export async function appendJournalEntry(config: KiokuConfig, request: UiParsedRequest<'journal.append'>): Promise<JournalAppended> {
  const appended = await appendJournal(config, { text: request.text, tags: request.tags });
  // The line number is what a search gives back: the last line holding this entry (another writer
  // may have appended after it in between).
  const entries = readJournal(config.paths.journalFile).entries;
  const mine = [...entries].reverse().find((e) => e.ts === appended.entry.ts && e.text === appended.entry.text);
  const line = mine?.line ?? entries[entries.length - 1]?.line ?? 1;
  return { entry: { ...appended.entry, line }, changedByCleaning: appended.changedByCleaning, warnings: appended.warnings };
}

export async function searchJournalEntries(config: KiokuConfig, request: UiParsedRequest<'journal.search'>): Promise<JournalSearchView> {
  const found = await searchJournal(config.paths.journalFile, { query: request.query, tag: request.tag, limit: request.limit });
  return { entries: found.entries, matched: found.matched, total: found.total, corrupt: found.corrupt, corruptLines: found.corruptLines };
}

/**
 * Every tag with how many entries carry it, most used first. Tags that differ only in width or
 * case (`CI`, `ｃｉ`) are one tag, as the search treats them; its most used spelling names it.
 */
export function journalTags(config: KiokuConfig): JournalTags {
  const journal = readJournal(config.paths.journalFile);
  const byKey = new Map<string, { count: number; spellings: Map<string, number> }>();
  for (const entry of journal.entries) {
    const seen = new Set<string>();
    for (const raw of entry.tags) {
      const tag = raw.replace(/^#+/, '').trim();
      const key = normalizeForSearch(tag);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      const bucket = byKey.get(key) ?? { count: 0, spellings: new Map<string, number>() };
      bucket.count += 1;
      bucket.spellings.set(tag, (bucket.spellings.get(tag) ?? 0) + 1);
      byKey.set(key, bucket);
    }
  }
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const tags = [...byKey.values()].map((bucket) => ({
    tag: [...bucket.spellings.entries()].sort((a, b) => b[1] - a[1] || byText(a[0], b[0]))[0]![0],
    count: bucket.count,
  }));
  tags.sort((a, b) => b.count - a.count || byText(a.tag, b.tag));
  return { tags, total: journal.entries.length };
}
