import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { isCategory, type Memory, type MemoryLoadProblem } from '../../../../common/memory.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { forgottenArchiveDir } from './forget.js';
import { parseMemory } from './memory-file.js';

/**
 * Issue 16: what archive/forgotten/ holds, for the timeline's "Forgotten" filter. Each archive is
 * unpacked in memory only (nothing is written); newest archive first; one that cannot be read is
 * reported and the others are still listed.
 */
export interface ForgottenEntry {
  /** The archive's name without .md.gz: what restore takes. */
  name: string;
  memory: Memory;
  /** When it was archived (the archive file's time, ISO). */
  forgottenAt: string;
}

export function listForgotten(
  memoryHome: string,
  role: string,
  limit = 500,
): { entries: ForgottenEntry[]; total: number; problems: MemoryLoadProblem[] } {
  const dir = forgottenArchiveDir(memoryHome, role);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.md.gz'));
  } catch {
    return { entries: [], total: 0, problems: [] };
  }
  const dated = names.flatMap((name) => {
    try {
      return [{ name, time: fs.statSync(path.join(dir, name)).mtimeMs }];
    } catch {
      return [];
    }
  });
  dated.sort((a, b) => b.time - a.time || a.name.localeCompare(b.name));
  const entries: ForgottenEntry[] = [];
  const problems: MemoryLoadProblem[] = [];
  for (const { name, time } of dated.slice(0, limit)) {
    const file = path.join(dir, name);
    try {
      const text = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8');
      const stated = String(parseFrontmatter(text).data.category ?? '').trim();
      const base = name.slice(0, -'.md.gz'.length);
      const memory = parseMemory(text, { fileId: base, ...(isCategory(stated) ? { folderCategory: stated } : {}) });
      entries.push({ name: base, memory, forgottenAt: new Date(time).toISOString() });
    } catch (error) {
      problems.push({ path: file, message: (error as Error).message });
    }
  }
  return { entries, total: dated.length, problems };
}
