import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import type { Memory, MemoryCategory, StoredMemory } from '../../../../common/memory.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { createFileExclusiveSync, writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { withLock } from '../../platform/fs/file-lock.js';
import { cleanForStorage } from '../../platform/privacy/clean-for-storage.js';
import { findMemory } from './find-memory.js';
import { parseCategoryInput, parsePriorityInput } from './memory-input.js';
import { categoryDir, ensureRoleMemoryDirs, MAX_MEMORY_FILE_BYTES, memoryLockFile } from './memory-layout.js';
import { parseMemory, serializeMemory } from './memory-file.js';
import { isPinned, PINNED } from './pinned.js';

/**
 * Issue 16: a person corrects one memory (the CLI's `memory edit|pin|unpin`, the timeline's edit
 * form). Text is redacted and script-guarded like every stored text (PRIV-1/2); the file is
 * rewritten atomically under the role's memory lock, or moved (new file first, then the old one
 * removed) when its category changes. Readers and the index follow the files (memory-cache.ts).
 */
export interface MemoryChanges {
  summary?: string;
  body?: string;
  tags?: readonly string[];
  priority?: number | string;
  category?: string;
  /** A date (YYYY-MM-DD), a condition text, or '' for none. */
  expires?: string;
  pinned?: boolean;
}

export interface EditResult {
  memory: StoredMemory;
  /** The fields that changed (empty: the file was left as it was). */
  changed: string[];
  /** Set when the memory moved to another category folder: where it was. */
  movedFrom?: string;
  warnings: string[];
}

const EXPIRES_MAX = 200;

async function cleaned(field: string, text: string, warnings: string[]): Promise<string> {
  const result = await cleanForStorage(text);
  for (const warning of result.warnings) warnings.push(`${field}: ${warning}`);
  return result.text;
}

type CleanFields = Partial<Pick<Memory, 'summary' | 'body' | 'tags' | 'priority' | 'category' | 'expires'>>;

/** The given fields checked and cleaned; a field not given is absent (left as the file has it). */
async function cleanChanges(changes: MemoryChanges, warnings: string[]): Promise<CleanFields> {
  const fields: CleanFields = {};
  if (changes.summary !== undefined) {
    const summary = (await cleaned('summary', changes.summary.trim(), warnings)).replace(/\s*\n\s*/g, ' ');
    if (!summary)
      throw new KiokuError('BAD_USAGE', 'the summary is empty; a memory needs one sentence that says what it is', {
        hint: 'e.g. --summary "專案一律使用 Node 20"',
      });
    fields.summary = summary;
  }
  if (changes.body !== undefined)
    fields.body = (await cleaned('body', changes.body.replace(/\r\n/g, '\n'), warnings)).replace(/^\n+/, '').replace(/\s+$/u, '');
  if (changes.tags !== undefined) {
    const tags = await Promise.all(changes.tags.map((tag) => cleaned('tags', tag.trim(), warnings)));
    fields.tags = [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))];
  }
  if (changes.priority !== undefined) fields.priority = parsePriorityInput(changes.priority);
  if (changes.category !== undefined) fields.category = parseCategoryInput(changes.category);
  if (changes.expires !== undefined) {
    const expires = changes.expires.trim();
    if (/[\r\n]/.test(expires) || expires.length > EXPIRES_MAX) {
      throw new KiokuError('BAD_USAGE', `expires "${expires.slice(0, 60)}" must be one line of at most ${EXPIRES_MAX} characters`, {
        hint: 'a date such as 2026-12-31, or a condition such as PR 合併後失效',
      });
    }
    fields.expires = expires ? await cleaned('expires', expires, warnings) : '';
  }
  return fields;
}

function checkSize(text: string): void {
  if (Buffer.byteLength(text) > MAX_MEMORY_FILE_BYTES) {
    throw new KiokuError(
      'LIMIT_EXCEEDED',
      `the edited memory would be ${(Buffer.byteLength(text) / 1024 ** 2).toFixed(1)} MB, more than a memory may be (${MAX_MEMORY_FILE_BYTES / 1024 ** 2} MB); nothing was written`,
      {
        hint: 'split the text into several smaller memories',
      },
    );
  }
}

/** Write `next` where its category says, removing the old file when it moved; under the caller's lock. */
function writeEdited(config: KiokuConfig, role: string, found: StoredMemory, next: Memory): string {
  const text = serializeMemory(next);
  checkSize(text);
  if (next.category === found.category) {
    writeFileAtomicSync(found.path, text);
    return found.path;
  }
  ensureRoleMemoryDirs(config.paths.memoryHome, role);
  const target = path.join(categoryDir(config.paths.memoryHome, role, next.category as MemoryCategory), path.basename(found.path));
  if (!createFileExclusiveSync(target, text)) {
    throw new KiokuError('ALREADY_EXISTS', `${target} already exists; the memory was left in ${found.category}`, {
      path: target,
      hint: 'move or rename one of the two files first',
    });
  }
  fs.unlinkSync(found.path);
  return target;
}

export async function editMemory(config: KiokuConfig, role: string, id: string, changes: MemoryChanges): Promise<EditResult> {
  const warnings: string[] = [];
  // Cleaning is async (OpenCC loads lazily), so it happens before the lock is taken.
  const fields = await cleanChanges(changes, warnings);
  return withLock(memoryLockFile(config.paths.memoryHome, role), { purpose: 'edit', waitMs: 10_000 }, () => {
    // Read under the lock: a recall may have counted a hit since the caller looked.
    const found = findMemory(config.paths.memoryHome, role, id);
    const current = parseMemory(fs.readFileSync(found.path, 'utf8'), {
      folderCategory: found.category,
      fileId: path.basename(found.path, '.md'),
    });
    const next: Memory = { ...current, ...fields, extra: { ...current.extra } };
    if (changes.pinned === true && next.category === 'inbox') {
      // The next sleep consolidates an inbox item into a new memory: a pin on it would be lost there.
      throw new KiokuError('BAD_USAGE', `${id} is still in the inbox; a pin would not survive its consolidation`, {
        hint: 'move it to a category first (e.g. --category important), or pin it after the next sleep',
      });
    }
    if (changes.pinned === true) next.extra[PINNED] = true;
    if (changes.pinned === false) delete next.extra[PINNED];
    // Out of the inbox by hand is consolidated by hand: long-term, as a sleep would have made it.
    if (next.category !== current.category) next.retention_stage = next.category === 'inbox' ? 'working' : 'long_term';
    const changed = diffNames(current, next);
    if (changed.length === 0) return { memory: found, changed, warnings };
    // Pinning says how much the memory matters, not that it changed: its age (forgetting, PM-2) stays.
    if (changed.some((name) => name !== 'pinned')) next.updated = formatLocalIso(config.clock.now());
    const file = writeEdited(config, role, found, next);
    const result: EditResult = { memory: { ...next, role, path: file }, changed, warnings };
    if (file !== found.path) result.movedFrom = found.path;
    return result;
  });
}

function diffNames(current: Memory, next: Memory): string[] {
  const names: string[] = [];
  if (next.summary !== current.summary) names.push('summary');
  if (next.body !== current.body) names.push('body');
  if (next.tags.join('\u0000') !== current.tags.join('\u0000')) names.push('tags');
  if (next.priority !== current.priority) names.push('priority');
  if (next.category !== current.category) names.push('category');
  if (next.expires !== current.expires) names.push('expires');
  if (isPinned(next) !== isPinned(current)) names.push('pinned');
  return names;
}
