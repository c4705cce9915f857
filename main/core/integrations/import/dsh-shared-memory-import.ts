import fs from 'node:fs';
import path from 'node:path';
import type { KiokuConfig } from '../../platform/config/config.js';
import { cleanNotesText } from '../../store/notes/clean-notes-text.js';
import { measureFacts } from '../../store/notes/notes-limits.js';
import { factsLimitError, readFacts, updateFacts } from '../../store/notes/facts-file.js';
import { normalizeTags, readJournal, type JournalEntry } from '../../store/notes/journal.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../platform/fs/atomic-write.js';
import { withLock } from '../../platform/fs/file-lock.js';
import type { ImportReport } from './import-types.js';

/**
 * The notes skill's shared memory — global facts and the journal — into Kioku's, through the facts
 * module's own functions (main/core/store/notes/): the same PRIV-1/2 cleaning, the same DSH-1 limits,
 * the same journal lock.
 */

const comparable = (text: string) => text.replace(/\r\n/g, '\n').replace(/\s+$/, '');

/**
 * FACT.md (DSH-1): written only where there is none. Over the limit a write is refused, never
 * silently truncated — a source over 100 lines or 8000 bytes is refused whole; a target
 * that holds other text is a conflict for the user to settle, never overwritten.
 */
export async function importFacts(config: KiokuConfig, file: string, report: ImportReport): Promise<void> {
  const target = config.paths.factsFile;
  const raw = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  if (!raw.trim()) {
    report.facts = { source: file, target, action: 'absent', cleaned: false };
    report.skipped.push({ source: 'memory/FACT.md', reason: 'empty: nothing to import' });
    return;
  }
  const cleaned = await cleanNotesText(raw);
  report.warnings.push(...cleaned.warnings.map((warning) => `memory/FACT.md: ${warning}`));
  const usage = measureFacts(cleaned.text);
  const base = { source: file, target, usage, cleaned: cleaned.changed };
  if (usage.over.length) {
    report.facts = { ...base, action: 'refused' };
    report.conflicts.push(
      `${factsLimitError(file, usage).message.replace(/^refused to write [^:]+:/, `refused to import ${file}:`)}; shorten it in DSH first (it is injected into every session)`,
    );
    return;
  }
  const existing = readFacts(config.paths);
  if (existing.exists && comparable(existing.text) === comparable(cleaned.text)) {
    report.facts = { ...base, action: 'unchanged' };
    return;
  }
  if (existing.exists) {
    report.facts = { ...base, action: 'conflict' };
    report.conflicts.push(
      `${target} already holds other facts; it was left as it is. Merge ${file} into it by hand (\`kioku facts read\`, then \`kioku facts update\`)`,
    );
    return;
  }
  if (!report.dryRun) await updateFacts(config.paths, raw);
  report.facts = { ...base, action: 'create' };
  report.changes += 1;
}

const entryKey = (entry: Pick<JournalEntry, 'ts' | 'text'>) => `${entry.ts}\0${entry.text}`;

function appendEntries(file: string, entries: JournalEntry[]): number {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  return withLock(`${file}.lock`, { purpose: 'import into the journal', waitMs: 5_000, staleMs: 60_000 }, () => {
    // Read again under the lock: an entry appended since the plan is not appended twice.
    const present = new Set(readJournal(file).entries.map(entryKey));
    const fresh = entries.filter((entry) => !present.has(entryKey(entry)));
    if (!fresh.length) return 0;
    const fd = fs.openSync(file, 'a+', PRIVATE_FILE_MODE);
    try {
      const size = fs.fstatSync(fd).size;
      const last = Buffer.alloc(1);
      if (size > 0) fs.readSync(fd, last, 0, 1, size - 1);
      const lines = fresh.map((entry) => JSON.stringify({ ts: entry.ts, tags: entry.tags, text: entry.text })).join('\n');
      fs.writeSync(fd, `${size > 0 && last[0] !== 0x0a ? '\n' : ''}${lines}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    return fresh.length;
  });
}

/**
 * JOURNAL.jsonl (DSH-3): append-only, so only the entries the Kioku journal does not have yet
 * (same time and same stored text) are appended, in the source's order, keeping their own `ts`.
 */
export async function importJournal(config: KiokuConfig, file: string, report: ImportReport): Promise<void> {
  const target = config.paths.journalFile;
  const source = readJournal(file);
  const present = new Set(readJournal(target).entries.map(entryKey));
  const toAdd: JournalEntry[] = [];
  let existing = 0;
  let cleanedCount = 0;
  for (const entry of source.entries) {
    const text = await cleanNotesText(entry.text);
    const tags: string[] = [];
    let tagsChanged = false;
    for (const tag of normalizeTags(entry.tags)) {
      const cleanedTag = await cleanNotesText(tag);
      tagsChanged ||= cleanedTag.changed;
      tags.push(cleanedTag.text);
    }
    report.warnings.push(...text.warnings.map((warning) => `memory/JOURNAL.jsonl#L${entry.line}: ${warning}`));
    const stored: JournalEntry = { ts: entry.ts, tags: normalizeTags(tags), text: text.text };
    if (present.has(entryKey(stored))) {
      existing += 1;
      continue;
    }
    present.add(entryKey(stored));
    if (text.changed || tagsChanged) cleanedCount += 1;
    toAdd.push(stored);
  }
  for (const line of source.corruptLines)
    report.skipped.push({ source: `memory/JOURNAL.jsonl#L${line}`, reason: 'not a journal entry (broken JSON or no text); left out' });
  const added = report.dryRun ? toAdd.length : appendEntries(target, toAdd);
  report.journal = {
    source: file,
    target,
    added,
    existing: existing + (toAdd.length - added),
    corrupt: source.corrupt,
    cleaned: cleanedCount,
  };
  report.changes += added;
}
