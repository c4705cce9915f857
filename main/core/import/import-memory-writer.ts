import path from 'node:path';
import type { Memory, MemoryCategory, MemoryType } from '../../../common/memory.js';
import { createFileExclusiveSync } from '../fs/atomic-write.js';
import { stringifyFrontmatter } from '../frontmatter/stringify-frontmatter.js';
import { defaultStrength, fileNameForId, gistOf, parseMemory, serializeMemory } from '../memory/memory-file.js';
import { categoryDir, ensureRoleMemoryDirs } from '../memory/memory-layout.js';
import { cleanForStorage } from '../privacy/clean-for-storage.js';
import { IMPORTED_FROM_KEY } from './import-ids.js';

/**
 * An imported memory on its way to a file. Unlike writeMemory (memory-writer.ts), which stamps
 * "now" and a random id on what a session just said, an import carries history: the source's
 * created/updated times, its recall count (hits) and earned strength (PM-2: "rewriting a memory
 * keeps its earned strength and first_seen"), and an id derived from the source (import-ids.ts).
 * The text gate is the same one writeMemory uses: redaction and the script guard (PRIV-1/2).
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
  /** Source strength; default from priority like any memory without one (MEM-2). */
  strength?: number;
  /** Source frontmatter kept verbatim (string values cleaned like the text). */
  extra: Record<string, unknown>;
}

export interface PreparedMemory {
  memory: Memory;
  source: string;
  /** Any stored text differs from the source text. */
  cleaned: boolean;
  warnings: string[];
}

async function cleanText(text: string, field: string, warnings: Set<string>): Promise<{ text: string; changed: boolean }> {
  const result = await cleanForStorage(text);
  for (const warning of result.warnings) warnings.add(`${field}: ${warning}`);
  return { text: result.text, changed: result.text !== text };
}

/** Clean every text of a draft and build the memory exactly as it will be written. */
export async function prepareImportedMemory(draft: ImportedMemoryDraft): Promise<PreparedMemory> {
  const warnings = new Set<string>();
  let cleaned = false;
  const clean = async (field: string, text: string) => {
    const result = await cleanText(text, field, warnings);
    cleaned ||= result.changed;
    return result.text;
  };
  const body = await clean('body', draft.body.replace(/^(?:\r?\n)+/, '').replace(/\s+$/, ''));
  const summary = draft.summary?.trim() ? await clean('summary', draft.summary.trim()) : gistOf(body);
  const tags: string[] = [];
  for (const tag of draft.tags) {
    const text = (await clean('tags', tag)).trim();
    if (text && !tags.includes(text)) tags.push(text);
  }
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(draft.extra)) extra[key] = typeof value === 'string' ? await clean(key, value) : value;
  extra[IMPORTED_FROM_KEY] = draft.importedFrom;
  // The defaults a file missing these fields gets on read (MEM-2), so written and read agree.
  const defaults = parseMemory(stringifyFrontmatter({ id: draft.id, category: draft.category, priority: draft.priority, memory_type: draft.memory_type }, ''), {
    folderCategory: draft.category,
  });
  const memory: Memory = {
    ...defaults,
    summary,
    tags,
    relevance: draft.relevance,
    created: draft.created,
    updated: draft.updated || draft.created,
    last_replayed: draft.last_replayed,
    hits: draft.hits,
    strength: draft.strength ?? defaultStrength(defaults.priority),
    body,
    extra,
  };
  return { memory, source: draft.source, cleaned, warnings: [...warnings] };
}

export function importedMemoryPath(memoryHome: string, role: string, memory: Pick<Memory, 'id' | 'category'>): string {
  return path.join(categoryDir(memoryHome, role, memory.category), fileNameForId(memory.id));
}

/** Write the memory unless its file exists; true when it was written (atomic, never over a file). */
export function writeImportedMemory(memoryHome: string, role: string, memory: Memory): boolean {
  ensureRoleMemoryDirs(memoryHome, role);
  return createFileExclusiveSync(importedMemoryPath(memoryHome, role, memory), serializeMemory(memory));
}
