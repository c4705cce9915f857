import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { formatLocalIso, parseLooseDate } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../platform/fs/atomic-write.js';
import { withLock } from '../../platform/fs/file-lock.js';
import { cleanNotesText } from './clean-notes-text.js';

/**
 * DSH-3 journal, `<memory home>/JOURNAL.jsonl`: one JSON object per line, `{ts, tags, text}`.
 * DSH-3: an unbounded running log — append-only, no size limit (a limit would only force the
 * user to throw history away; long text belongs here), never injected (only a count is, see
 * journalPointerBlock), searched by substring and tag, newest first.
 */
export interface JournalEntry {
  /**
   * ISO 8601 with the local offset, from the clock (KIOKU_NOW in tests). Read back, any time the
   * file holds (epoch number, UTC string) is given in this form; a text that is no date as it is.
   */
  ts: string;
  tags: string[];
  text: string;
}

export interface JournalAppend {
  path: string;
  entry: JournalEntry;
  changedByCleaning: boolean;
  warnings: string[];
}

/** An entry as read back, with where it was in the file (1-based line) for ordering and reports. */
export interface StoredJournalEntry extends JournalEntry {
  line: number;
}

export interface JournalRead {
  path: string;
  entries: StoredJournalEntry[];
  /** Lines that are not a journal entry (broken JSON, no text): skipped, counted, never fatal. */
  corrupt: number;
  /** Their line numbers (the first 20), so a person can find and fix them. */
  corruptLines: number[];
}

/** `a,b`, `#a`, ` a ` → `a`; empty tags dropped, duplicates once. */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const raw of tags) {
    const tag = raw.trim().replace(/^#+/, '').trim();
    if (tag) seen.add(tag);
  }
  return [...seen];
}

/** Epoch numbers below this are seconds (1e11 s is the year 5138; 1e11 ms is 1973). */
const EPOCH_SECONDS_BELOW = 1e11;

function epochDate(value: number): Date {
  return new Date(Math.abs(value) < EPOCH_SECONDS_BELOW ? value * 1000 : value);
}

/**
 * An entry's time as shown everywhere (CLI, MCP tool, UI): local ISO with its offset, like every
 * time Kioku writes (formatLocalIso). The notes skill's tooling may have written epoch milliseconds or
 * seconds, or a UTC `…Z` string; those are the same instants, shown in local time instead of
 * as a number or in UTC. A text that is no date is kept as it is; no `ts` at all is ''.
 */
function parseTs(value: unknown): string {
  if (typeof value === 'number') {
    const date = epochDate(value);
    return Number.isNaN(date.getTime()) ? '' : formatLocalIso(date);
  }
  if (typeof value !== 'string') return '';
  const text = value.trim();
  const date = /^\d{9,}(?:\.\d+)?$/.test(text) ? epochDate(Number(text)) : parseLooseDate(text);
  return date && !Number.isNaN(date.getTime()) ? formatLocalIso(date) : value;
}

/** One line as an entry, or undefined when it is not one (blank lines are not entries either). */
export function parseJournalLine(line: string): JournalEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.text !== 'string' || !record.text.trim()) return undefined;
  const tags = Array.isArray(record.tags) ? record.tags.filter((tag): tag is string => typeof tag === 'string') : [];
  return { ts: parseTs(record.ts), tags, text: record.text };
}

const MAX_REPORTED_CORRUPT_LINES = 20;

/** Every entry in file order. A missing file is an empty journal. */
export function readJournal(file: string): JournalRead {
  let content: string;
  try {
    content = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path: file, entries: [], corrupt: 0, corruptLines: [] };
    throw error;
  }
  const entries: StoredJournalEntry[] = [];
  const corruptLines: number[] = [];
  let corrupt = 0;
  content.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const entry = parseJournalLine(line);
    if (entry) entries.push({ ...entry, line: i + 1 });
    else {
      corrupt++;
      if (corruptLines.length < MAX_REPORTED_CORRUPT_LINES) corruptLines.push(i + 1);
    }
  });
  return { path: file, entries, corrupt, corruptLines };
}

/** The last byte of the file is a newline (or the file is empty): a hand edit may have left it without one. */
function endsWithNewline(fd: number): boolean {
  const size = fs.fstatSync(fd).size;
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  fs.readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/**
 * Append one entry. The text and tags are cleaned (PRIV-1/2) first. The line is written with one
 * O_APPEND write and fsync under `<journal>.lock`, so concurrent appenders (CLI, MCP, the app) never
 * interleave and a crash leaves at most one broken last line, which readers skip and count.
 * The file is never rewritten: it grows without bound by design.
 */
export async function appendJournal(
  config: Pick<KiokuConfig, 'paths' | 'clock'>,
  input: { text: string; tags?: readonly string[] },
): Promise<JournalAppend> {
  const file = config.paths.journalFile;
  if (!input.text.trim()) {
    throw new KiokuError('BAD_USAGE', 'the journal entry is empty; nothing was written', { hint: 'pass the note with --text "…"' });
  }
  const text = await cleanNotesText(input.text.trim());
  const tags = await Promise.all(normalizeTags(input.tags ?? []).map((tag) => cleanNotesText(tag)));
  const entry: JournalEntry = { ts: formatLocalIso(config.clock.now()), tags: normalizeTags(tags.map((tag) => tag.text)), text: text.text };
  const line = `${JSON.stringify(entry)}\n`;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  withLock(`${file}.lock`, { purpose: 'append to the journal', waitMs: 5_000, staleMs: 60_000 }, () => {
    const fd = fs.openSync(file, 'a+', PRIVATE_FILE_MODE);
    try {
      fs.writeSync(fd, endsWithNewline(fd) ? line : `\n${line}`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  });
  return {
    path: file,
    entry,
    changedByCleaning: text.changed || tags.some((tag) => tag.changed),
    warnings: [...text.warnings, ...tags.flatMap((tag) => tag.warnings)],
  };
}
