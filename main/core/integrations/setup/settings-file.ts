import fs from 'node:fs';
import { KiokuError } from '../../../../common/errors.js';
import { createFileExclusiveSync, writeFileAtomicSync } from '../../platform/fs/atomic-write.js';

/** An assistant's settings file as read: the parsed object, and the text to back up. */
export interface SettingsDocument {
  file: string;
  exists: boolean;
  /** The parsed JSON object ({} for a missing or empty file). */
  data: Record<string, unknown>;
  /** The file's exact previous bytes, for the .bak; undefined when it did not exist. */
  original?: Buffer;
}

function invalid(file: string, what: string): KiokuError {
  return new KiokuError('INVALID_FILE', `${file} ${what}; Kioku changed nothing`, {
    path: file,
    hint: 'fix the file (Kioku edits settings only when they are plain JSON, without comments) and run the command again',
  });
}

/**
 * Read a settings file. A file that is not a JSON object, or whose `hooks` is not an object,
 * is refused with its name: rewriting what we cannot parse could lose the user's settings.
 */
export function readSettingsFile(file: string): SettingsDocument {
  let original: Buffer;
  try {
    original = fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, exists: false, data: {} };
    throw error;
  }
  const text = original.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') return { file, exists: true, data: {}, original };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(file, `is not valid JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid(file, 'does not hold a JSON object');
  const data = parsed as Record<string, unknown>;
  if ('hooks' in data && (data.hooks === null || typeof data.hooks !== 'object' || Array.isArray(data.hooks))) {
    throw invalid(file, 'has a "hooks" value that is not an object');
  }
  return { file, exists: true, data, original };
}

/**
 * Write the changed settings atomically with 2-space indentation. The first time Kioku changes
 * a file, its previous bytes are kept as `<file>.bak`; an existing .bak is never overwritten
 * (it holds the file as it was before Kioku ever touched it — or it is the user's own).
 * Returns the backup's path when one was written now.
 */
export function writeSettingsFile(doc: SettingsDocument, data: Record<string, unknown>): string | undefined {
  let backup: string | undefined;
  if (doc.original !== undefined && createFileExclusiveSync(`${doc.file}.bak`, doc.original)) backup = `${doc.file}.bak`;
  writeFileAtomicSync(doc.file, `${JSON.stringify(data, null, 2)}\n`);
  return backup;
}
