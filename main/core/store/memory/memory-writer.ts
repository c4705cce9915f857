import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import type {
  Declarative,
  Memory,
  MemoryCategory,
  MemoryType,
  RetentionStage,
  SleepStage,
  StoredMemory,
} from '../../../../common/memory.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { stringifyFrontmatter } from '../../platform/frontmatter/stringify-frontmatter.js';
import { createFileExclusiveSync } from '../../platform/fs/atomic-write.js';
import { cleanForStorage } from '../../platform/privacy/clean-for-storage.js';
import { PROJECT_KEY } from '../projects/memory-project.js';
import { fileNameForId, gistOf, newMemoryId, parseMemory, serializeMemory } from './memory-file.js';
import { categoryDir, ensureRoleMemoryDirs, MAX_MEMORY_FILE_BYTES } from './memory-layout.js';

/** What a writer (remember, capture, import, consolidation) knows about a new memory. */
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
  /** Frontmatter keys kept exactly as given (ids and traces that must match byte for byte); never cleaned. */
  verbatimExtra?: Record<string, unknown>;
  /** A derived id (capture, import, sleep) makes the write idempotent; a fresh one is drawn when absent. */
  id?: string;
  /** History a memory brings along (an import, a turn written later from the spool); "now" when absent. */
  created?: string;
  updated?: string;
  last_replayed?: string;
  hits?: number;
  /** Keep the body's leading indentation (imported Markdown); otherwise the body is trimmed. */
  keepIndent?: boolean;
}

/** The text gate: redaction then the script guard. Sleep passes its own, already run over the whole plan in one batch. */
export type TextGate = (text: string) => Promise<{ text: string; warnings: string[] }>;

export interface PreparedMemory {
  memory: Memory;
  /** The file's text, exactly as it will be written. */
  text: string;
  /** Script-guard warnings, prefixed with the field they came from. */
  warnings: string[];
  /** Some stored text differs from the draft's (a secret masked, a character converted). */
  cleaned: boolean;
}

export interface WrittenMemory {
  memory: StoredMemory;
  warnings: string[];
  /** False when a memory with this derived id was there already (a replay): nothing was written. */
  written: boolean;
}

class TextCleaner {
  readonly warnings = new Set<string>();
  cleaned = false;

  constructor(private readonly gate: TextGate) {}

  async clean(field: string, text: string): Promise<string> {
    const result = await this.gate(text);
    for (const warning of result.warnings) this.warnings.add(`${field}: ${warning}`);
    this.cleaned ||= result.text !== text;
    return result.text;
  }

  async cleanList(field: string, items: readonly string[]): Promise<string[]> {
    const cleaned = await Promise.all(items.map((item) => this.clean(field, item)));
    return [...new Set(cleaned.map((item) => item.trim()).filter(Boolean))];
  }
}

export function memoryFilePath(memoryHome: string, role: string, category: MemoryCategory, id: string): string {
  return path.join(categoryDir(memoryHome, role, category), fileNameForId(id));
}

/**
 * Everything that makes a new memory's file, in one place: every text a person or a model said is
 * redacted and script-guarded (summary, tags, cues, expires, body, string extras), the fields a
 * reader would default are filled the same way (so written and read never disagree), and the size
 * is capped. Text is stored as given otherwise: `{{anything}}` stays literal, nothing is templated.
 */
export async function prepareMemory(draft: MemoryDraft, now: Date, gate: TextGate = cleanForStorage): Promise<PreparedMemory> {
  const cleaner = new TextCleaner(gate);
  const trimmedBody = draft.keepIndent ? draft.body.replace(/^(?:\r?\n)+/, '').replace(/\s+$/, '') : draft.body.trim();
  const body = await cleaner.clean('body', trimmedBody);
  const summary = draft.summary?.trim() ? await cleaner.clean('summary', draft.summary.trim()) : gistOf(body);
  if (!summary && !body) {
    throw new KiokuError('BAD_USAGE', 'a memory needs a summary or a body; both are empty', { hint: 'pass the text to remember' });
  }
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(draft.extra ?? {})) {
    // A project is a folder path, not words: the script guard would turn 项目 into 項目, a folder that does not exist.
    extra[key] = typeof value === 'string' && key !== PROJECT_KEY ? await cleaner.clean(key, value) : value;
  }
  Object.assign(extra, draft.verbatimExtra);
  const tags = await cleaner.cleanList('tags', draft.tags ?? []);
  const cues = await cleaner.cleanList('cues', draft.cues ?? []);
  const expires = draft.expires?.trim() ? await cleaner.clean('expires', draft.expires.trim()) : '';
  const stamp = formatLocalIso(now);
  const id = draft.id ?? newMemoryId(now);
  const defaults = parseMemory(
    stringifyFrontmatter({ id, category: draft.category, priority: draft.priority, memory_type: draft.memory_type }, ''),
    {
      folderCategory: draft.category,
    },
  );
  const created = draft.created ?? stamp;
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
    created,
    updated: draft.updated || created,
    last_replayed: draft.last_replayed ?? '',
    hits: draft.hits ?? 0,
    strength: draft.strength ?? defaults.strength,
    body,
    extra,
  };
  const text = serializeMemory(memory);
  // Readers skip a memory file above this size: written, it would be lost from sight.
  if (Buffer.byteLength(text) > MAX_MEMORY_FILE_BYTES) {
    throw new KiokuError(
      'LIMIT_EXCEEDED',
      `this memory would be a ${(Buffer.byteLength(text) / 1024 ** 2).toFixed(1)} MB file, more than a memory may be (${MAX_MEMORY_FILE_BYTES / 1024 ** 2} MB); nothing was written`,
      {
        hint: 'split the text into several smaller memories',
      },
    );
  }
  return { memory, text, warnings: [...cleaner.warnings], cleaned: cleaner.cleaned };
}

/** Creates a file only if it does not exist, atomically; false when it was there. Sleep passes its journaled writer. */
export type ExclusiveCreate = (file: string, text: string) => boolean;

/** Write a prepared memory unless its file exists (atomic, never over a file). */
export function writePreparedMemory(
  memoryHome: string,
  role: string,
  prepared: PreparedMemory,
  create: ExclusiveCreate = createFileExclusiveSync,
): WrittenMemory {
  ensureRoleMemoryDirs(memoryHome, role);
  const file = memoryFilePath(memoryHome, role, prepared.memory.category, prepared.memory.id);
  const written = create(file, prepared.text);
  return { memory: { ...prepared.memory, role, path: file }, warnings: prepared.warnings, written };
}

/**
 * The one write path for new memories: prepareMemory, then an exclusive atomic create at
 * `<memory home>/<ID>/<category>/<id>.md`. With a derived id a second write of the same memory
 * writes nothing (`written: false`); with a fresh id a clash draws another.
 */
export async function writeMemory(config: KiokuConfig, role: string, draft: MemoryDraft): Promise<WrittenMemory> {
  const now = config.clock.now();
  let prepared = await prepareMemory(draft, now);
  for (let attempt = 0; attempt < 5; attempt++) {
    const result = writePreparedMemory(config.paths.memoryHome, role, prepared);
    if (result.written || draft.id !== undefined) return result;
    const memory = { ...prepared.memory, id: newMemoryId(now) };
    prepared = { ...prepared, memory, text: serializeMemory(memory) };
  }
  const dir = categoryDir(config.paths.memoryHome, role, draft.category);
  throw new KiokuError('IO', `could not find a free file name for a new memory in ${dir}`, {
    path: dir,
    hint: 'check that the folder is writable and not full of files with clashing names',
  });
}
