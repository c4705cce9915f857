import fs from 'node:fs';
import { KiokuError } from '../../../../common/errors.js';
import type { KiokuPaths } from '../../platform/config/paths.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { cleanNotesText } from './clean-notes-text.js';
import { FACT_MAX_BYTES, FACT_MAX_LINES, measureFacts, type FactsUsage } from './notes-limits.js';

/**
 * DSH-1 global facts, `<memory home>/FACT.md`: stable facts shared by every role and injected into
 * every main session (main/core/engine/context/shared-memory-blocks.ts). DSH-1: 100 lines
 * AND 8000 bytes, because whatever is written here is paid for in every project on every turn, so a write over
 * either limit is refused whole and the file stays as it was — never truncated.
 */
export interface FactsRead {
  path: string;
  exists: boolean;
  /** The file's text (BOM dropped); empty when there is no file. */
  text: string;
  usage: FactsUsage;
}

export interface FactsUpdate {
  path: string;
  /** Usage of the text as written. */
  usage: FactsUsage;
  /** The file did not exist before. */
  created: boolean;
  /** Cleaning (PRIV-1/2) changed the text; callers must say so. */
  changedByCleaning: boolean;
  warnings: string[];
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Read FACT.md with its usage against both limits (DSH-1: report lines used / limit and bytes used / limit). */
export function readFacts(paths: Pick<KiokuPaths, 'factsFile'>): FactsRead {
  const text = readIfExists(paths.factsFile);
  return { path: paths.factsFile, exists: text !== undefined, text: text ?? '', usage: measureFacts(text ?? '') };
}

/** The refusal, naming each limit that was passed and where else the text can go. */
export function factsLimitError(file: string, usage: FactsUsage): KiokuError {
  const parts: string[] = [];
  if (usage.over.includes('lines')) parts.push(`${usage.lines} lines (limit ${FACT_MAX_LINES})`);
  if (usage.over.includes('bytes')) parts.push(`${usage.bytes} UTF-8 bytes (limit ${FACT_MAX_BYTES})`);
  return new KiokuError('LIMIT_EXCEEDED', `refused to write ${file}: the new text has ${parts.join(' and ')}; the file was not changed`, {
    path: file,
    hint: "shorten it: keep only facts that hold across every project; move project-specific notes to that project's MEMORY.md (`kioku project-memory update`) and one-off events to the journal (`kioku journal append`)",
  });
}

/**
 * Replace FACT.md with `text` (the notes skill's update replaces the whole file). The text is cleaned first
 * (PRIV-1/2) and the limits are checked on what would be stored, so a masked secret can never
 * sneak a file over the limit. Refused (LIMIT_EXCEEDED) when over either limit; refused when
 * empty (an empty stdin would otherwise wipe the user's facts — delete the file to clear it).
 */
export async function updateFacts(paths: Pick<KiokuPaths, 'factsFile'>, text: string): Promise<FactsUpdate> {
  const given = text.replace(/^\uFEFF/, '');
  if (!given.trim()) {
    throw new KiokuError('BAD_USAGE', `the new text for ${paths.factsFile} is empty; nothing was written`, {
      path: paths.factsFile,
      hint: 'pass the whole new text (read the current one first with `kioku facts read`); to clear the facts, delete the file',
    });
  }
  const cleaned = await cleanNotesText(given);
  const usage = measureFacts(cleaned.text);
  if (usage.over.length) throw factsLimitError(paths.factsFile, usage);
  const created = !fs.existsSync(paths.factsFile);
  writeFileAtomicSync(paths.factsFile, cleaned.text);
  return { path: paths.factsFile, usage, created, changedByCleaning: cleaned.changed, warnings: cleaned.warnings };
}
