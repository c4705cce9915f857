import { recallQueryInStoredScript } from '../index/recall-query-script.js';
import { normalizeTags, readJournal, type StoredJournalEntry } from './journal.js';

/**
 * DSH-3 search (seed 002 §工具: "search · 按子串（可選 tag）檢索日誌，新→舊"). Chinese has no
 * spaces, so this is substring matching, not word matching: 部署 finds 「今天的部署流程改了」.
 * Both sides are normalised first — NFKC (full-width ＡＢＣ１２３ → ABC123, half-width ｶﾅ → カナ)
 * and lower case — and a query typed in Simplified also matches the Traditional text it was
 * stored as (the same guard recall uses), while entries imported in Simplified still match the
 * query as typed. A query with spaces is several terms that must all match (in the text or a tag).
 */
export interface JournalSearchOptions {
  /** Text to look for; empty or missing: every entry (filtered by tag, if any). */
  query?: string;
  /** Only entries with this tag (`#` optional, case and width ignored). */
  tag?: string;
  /** How many entries at most (newest first); missing: all. */
  limit?: number;
}

export interface JournalSearchResult {
  path: string;
  /** Newest first, at most `limit`. */
  entries: StoredJournalEntry[];
  /** All matching entries, before the limit. */
  matched: number;
  /** Entries in the journal. */
  total: number;
  /** Lines skipped because they are not entries (see readJournal). */
  corrupt: number;
  corruptLines: number[];
}

export function normalizeForSearch(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** A text as typed and in the stored script (Simplified → Traditional), both normalised. */
async function variantsOf(text: string): Promise<string[]> {
  const typed = normalizeForSearch(text);
  const converted = normalizeForSearch(await recallQueryInStoredScript(text));
  return converted === typed ? [typed] : [typed, converted];
}

/** The query's whitespace-separated terms, each with its variants. */
function termVariants(query: string): Promise<string[][]> {
  return Promise.all(query.split(/\s+/).filter(Boolean).map(variantsOf));
}

function timeOf(entry: StoredJournalEntry): number {
  const ms = Date.parse(entry.ts);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/**
 * Newest first: by `ts`, and for equal (or unreadable) times the later line first — the file is
 * append-only, so a later line was written later; an import that appended older entries is still
 * sorted by when they happened.
 */
function newestFirst(a: StoredJournalEntry, b: StoredJournalEntry): number {
  const byTime = timeOf(b) - timeOf(a);
  if (byTime !== 0 && !Number.isNaN(byTime)) return byTime;
  return b.line - a.line;
}

export async function searchJournal(file: string, options: JournalSearchOptions = {}): Promise<JournalSearchResult> {
  const journal = readJournal(file);
  const terms = await termVariants(options.query ?? '');
  const wantedTag = normalizeTags([options.tag ?? ''])[0];
  const tagVariants = wantedTag ? await variantsOf(wantedTag) : [];
  const matches = journal.entries.filter((entry) => {
    const tags = entry.tags.map((tag) => normalizeForSearch(tag.replace(/^#+/, '')));
    if (tagVariants.length && !tags.some((tag) => tagVariants.includes(tag))) return false;
    const haystack = [normalizeForSearch(entry.text), ...tags].join('\n');
    return terms.every((variants) => variants.some((variant) => haystack.includes(variant)));
  });
  matches.sort(newestFirst);
  const limit = options.limit === undefined ? matches.length : Math.max(0, Math.floor(options.limit));
  return {
    path: journal.path,
    entries: matches.slice(0, limit),
    matched: matches.length,
    total: journal.entries.length,
    corrupt: journal.corrupt,
    corruptLines: journal.corruptLines,
  };
}
