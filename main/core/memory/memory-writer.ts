import path from 'node:path';
import { KiokuError } from '../../../common/errors.js';
import type {
  Declarative,
  Memory,
  MemoryCategory,
  MemoryType,
  RetentionStage,
  SleepStage,
  StoredMemory,
} from '../../../common/memory.js';
import { formatLocalIso } from '../config/clock.js';
import type { KiokuConfig } from '../config/config.js';
import { stringifyFrontmatter } from '../frontmatter/stringify-frontmatter.js';
import { createFileExclusiveSync } from '../fs/atomic-write.js';
import { cleanForStorage } from '../privacy/clean-for-storage.js';
import { fileNameForId, gistOf, newMemoryId, parseMemory, serializeMemory } from './memory-file.js';
import { categoryDir, ensureRoleMemoryDirs, MAX_MEMORY_FILE_BYTES } from './memory-layout.js';
import { PROJECT_KEY } from '../projects/memory-project.js';

/** What a writer (capture, remember, seed, consolidation) knows about a new memory. */
export interface MemoryDraft {
  category: MemoryCategory;
  body: string;
  /** One sentence; the body's first line when absent. */
  summary?: string;
  tags?: string[];
  priority?: number;
  cues?: string[];
  expires?: string;
  relevance?: string[];
  links?: string[];
  memory_type?: MemoryType;
  declarative?: Declarative;
  retention_stage?: RetentionStage;
  sleep_stage?: SleepStage;
  strength?: number;
  /** Further frontmatter keys (`source`, …); string values are cleaned like the text. */
  extra?: Record<string, unknown>;
}

export interface WrittenMemory {
  memory: StoredMemory;
  /** Script-guard warnings, prefixed with the field they came from. */
  warnings: string[];
}

class TextCleaner {
  readonly warnings = new Set<string>();

  async clean(field: string, text: string): Promise<string> {
    const result = await cleanForStorage(text);
    for (const warning of result.warnings) this.warnings.add(`${field}: ${warning}`);
    return result.text;
  }

  async cleanList(field: string, items: readonly string[]): Promise<string[]> {
    const cleaned = await Promise.all(items.map((item) => this.clean(field, item)));
    return cleaned.map((item) => item.trim()).filter(Boolean);
  }
}

/**
 * The one write path for new memories. Everything a person or a model said is redacted and
 * script-guarded (PRIV-1/2) — summary, tags, cues, expires, body and string extras — then written
 * atomically, never over an existing file, to `<memory home>/<ID>/<category>/<id>.md`.
 * Text is stored as given otherwise: `{{anything}}` stays literal (DSH-7), nothing is templated.
 */
export async function writeMemory(config: KiokuConfig, role: string, draft: MemoryDraft): Promise<WrittenMemory> {
  const cleaner = new TextCleaner();
  const body = await cleaner.clean('body', draft.body.trim());
  const summary = draft.summary?.trim() ? await cleaner.clean('summary', draft.summary.trim()) : gistOf(body);
  if (!summary && !body) {
    throw new KiokuError('BAD_USAGE', 'a memory needs a summary or a body; both are empty', { hint: 'pass the text to remember' });
  }
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(draft.extra ?? {})) {
    // A project is a folder path (issue 12), not words: the script guard would turn 项目 into 項目, a folder that does not exist.
    extra[key] = typeof value === 'string' && key !== PROJECT_KEY ? await cleaner.clean(key, value) : value;
  }
  const tags = await cleaner.cleanList('tags', draft.tags ?? []);
  const cues = await cleaner.cleanList('cues', draft.cues ?? []);
  const expires = draft.expires?.trim() ? await cleaner.clean('expires', draft.expires.trim()) : '';

  const now = config.clock.now();
  const stamp = formatLocalIso(now);
  const dir = categoryDir(config.paths.memoryHome, role, draft.category);
  ensureRoleMemoryDirs(config.paths.memoryHome, role);
  for (let attempt = 0; attempt < 5; attempt++) {
    const id = newMemoryId(now);
    // A new memory starts with exactly the defaults a file missing those fields gets on read
    // (MEM-2), so what is written and what is read can never disagree.
    const defaults = parseMemory(stringifyFrontmatter({ id, category: draft.category, priority: draft.priority, memory_type: draft.memory_type }, ''), {
      folderCategory: draft.category,
    });
    const memory: Memory = {
      ...defaults,
      summary,
      tags,
      cues,
      expires,
      relevance: draft.relevance ?? [],
      links: draft.links ?? [],
      declarative: draft.declarative ?? defaults.declarative,
      retention_stage: draft.retention_stage ?? defaults.retention_stage,
      sleep_stage: draft.sleep_stage ?? defaults.sleep_stage,
      created: stamp,
      updated: stamp,
      last_replayed: '',
      hits: 0,
      strength: draft.strength ?? defaults.strength,
      body,
      extra,
    };
    const file = path.join(dir, fileNameForId(id));
    const text = serializeMemory(memory);
    // Readers skip a memory file above this (issue 14): written, it would be lost from sight.
    if (Buffer.byteLength(text) > MAX_MEMORY_FILE_BYTES) {
      throw new KiokuError('LIMIT_EXCEEDED', `this memory would be a ${(Buffer.byteLength(text) / 1024 ** 2).toFixed(1)} MB file, more than a memory may be (${MAX_MEMORY_FILE_BYTES / 1024 ** 2} MB); nothing was written`, {
        hint: 'split the text into several smaller memories',
      });
    }
    if (createFileExclusiveSync(file, text)) {
      return { memory: { ...memory, role, path: file }, warnings: [...cleaner.warnings] };
    }
  }
  throw new KiokuError('IO', `could not find a free file name for a new memory in ${dir}`, {
    path: dir,
    hint: 'check that the folder is writable and not full of files with clashing names',
  });
}
