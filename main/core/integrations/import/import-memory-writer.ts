import type { Memory, MemoryCategory, MemoryType } from '../../../../common/memory.js';
import {
  memoryFilePath,
  prepareMemory,
  writePreparedMemory,
  type PreparedMemory as WritableMemory,
} from '../../store/memory/memory-writer.js';
import { IMPORTED_FROM_KEY } from './import-ids.js';

/**
 * An imported memory on its way to a file. Unlike a memory just said, an import carries history:
 * the source's created/updated times, its recall count (hits), its earned strength and an id
 * derived from the source (import-ids.ts). It goes through the one write path (memory-writer.ts).
 */
export interface ImportedMemoryDraft {
  id: string;
  /** Human trace of the source (`lumi/memory/long-term/x.md`, `…/short-term.jsonl#L3`). */
  source: string;
  /** The source kind and key, kept in the file as `imported_from`. */
  importedFrom: string;
  category: MemoryCategory;
  memory_type: MemoryType;
  body: string;
  summary?: string;
  tags: string[];
  priority: number;
  relevance: string[];
  created: string;
  updated: string;
  last_replayed: string;
  hits: number;
  /** Source strength; default from priority like any memory without one. */
  strength?: number;
  /** Source frontmatter kept (string values cleaned like the text). */
  extra: Record<string, unknown>;
}

export interface PreparedMemory extends WritableMemory {
  source: string;
}

/** Clean every text of a draft and build the memory exactly as it will be written (a dry run stops here). */
export async function prepareImportedMemory(draft: ImportedMemoryDraft, now: Date): Promise<PreparedMemory> {
  const { source, importedFrom, extra, ...fields } = draft;
  const prepared = await prepareMemory({ ...fields, extra, verbatimExtra: { [IMPORTED_FROM_KEY]: importedFrom }, keepIndent: true }, now);
  return { ...prepared, source };
}

export function importedMemoryPath(memoryHome: string, role: string, memory: Pick<Memory, 'id' | 'category'>): string {
  return memoryFilePath(memoryHome, role, memory.category, memory.id);
}

/** Write the memory unless its file exists; true when it was written (atomic, never over a file). */
export function writeImportedMemory(memoryHome: string, role: string, prepared: PreparedMemory): boolean {
  return writePreparedMemory(memoryHome, role, prepared).written;
}
