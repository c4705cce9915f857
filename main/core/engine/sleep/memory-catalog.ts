import fs from 'node:fs';
import path from 'node:path';
import type { Memory, MemoryLoadProblem, StoredMemory } from '../../../../common/memory.js';
import { parseMemory } from '../../store/memory/memory-file.js';
import { listMemoryFiles, readMemoryText, type MemoryFileRef } from '../../store/memory/memory-layout.js';

/**
 * The role's memory files as one consolidation sees them, re-read only when a file changed.
 * A night with 1,000 inbox items runs many collect → apply rounds; parsing every memory file in
 * every round would cost more than the consolidation itself, so each parsed file is kept (text
 * and memory) with its size, mtime and inode and used again while those stay the same. An
 * external edit, a capture landing mid-run or a write we did not announce changes them and the
 * file is read again; apply announces its own writes (`remember`), so they are not re-parsed.
 *
 * Only for a caller holding the role's memory lock: nobody else rewrites consolidated memories
 * then, and new inbox files still show up because the folders are listed each time.
 */
interface Cached {
  key: string;
  memory?: StoredMemory;
  text?: string;
  problem?: string;
}

export interface CatalogSnapshot {
  inbox: StoredMemory[];
  consolidated: StoredMemory[];
  problems: MemoryLoadProblem[];
}

function statKey(category: string, stat: fs.Stats): string {
  return `${category}:${stat.size}:${stat.mtimeMs}:${stat.ino}`;
}

export class MemoryCatalog {
  private readonly cache = new Map<string, Cached>();

  constructor(
    readonly memoryHome: string,
    readonly role: string,
  ) {}

  private read(ref: MemoryFileRef): Cached | undefined {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(ref.path);
    } catch {
      this.cache.delete(ref.path);
      return undefined; // gone between the listing and now
    }
    const key = statKey(ref.category, stat);
    const hit = this.cache.get(ref.path);
    if (hit?.key === key) return hit;
    let entry: Cached;
    try {
      // As readMemoryFile does, keeping the text for apply's "did anything change" check.
      const text = readMemoryText(ref.path, stat.size);
      const memory = parseMemory(text, {
        folderCategory: ref.category,
        fileId: path.basename(ref.path, '.md'),
        fileTime: stat.mtime.toISOString(),
      });
      entry = { key, text, memory: { ...memory, role: this.role, path: ref.path } };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.cache.delete(ref.path);
        return undefined;
      }
      entry = { key, problem: (error as Error).message };
    }
    this.cache.set(ref.path, entry);
    return entry;
  }

  /** Every memory file of the role now; unreadable ones are reported, never fatal. */
  snapshot(): CatalogSnapshot {
    const snapshot: CatalogSnapshot = { inbox: [], consolidated: [], problems: [] };
    const seen = new Set<string>();
    for (const ref of listMemoryFiles(this.memoryHome, this.role)) {
      seen.add(ref.path);
      const entry = this.read(ref);
      if (!entry) continue;
      if (entry.problem !== undefined) snapshot.problems.push({ path: ref.path, message: entry.problem });
      else if (entry.memory) (ref.category === 'inbox' ? snapshot.inbox : snapshot.consolidated).push(entry.memory);
    }
    for (const cached of [...this.cache.keys()]) if (!seen.has(cached)) this.cache.delete(cached);
    return snapshot;
  }

  /** One memory file as it is now (cached when unchanged); undefined when it is gone or unreadable. */
  current(memory: Pick<StoredMemory, 'path' | 'category'>): { memory: StoredMemory; text: string } | undefined {
    const entry = this.read({ path: memory.path, category: memory.category });
    return entry?.memory && entry.text !== undefined ? { memory: entry.memory, text: entry.text } : undefined;
  }

  /** apply wrote this file: remember what it now holds, so the next snapshot need not parse it again. */
  remember(file: string, category: StoredMemory['category'], text: string, memory: Memory): void {
    try {
      this.cache.set(file, { key: statKey(category, fs.statSync(file)), text, memory: { ...memory, role: this.role, path: file } });
    } catch {
      this.cache.delete(file);
    }
  }
}
