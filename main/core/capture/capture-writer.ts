import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MemoryCategory } from '../../../common/memory.js';
import { fixedClock, formatCompactDateTime } from '../config/clock.js';
import type { KiokuConfig } from '../config/config.js';
import { createFileExclusiveSync } from '../fs/atomic-write.js';
import { fileNameForId, serializeMemory } from '../memory/memory-file.js';
import { categoryDir, ensureRoleMemoryDirs } from '../memory/memory-layout.js';
import { writeMemory, type MemoryDraft } from '../memory/memory-writer.js';

/**
 * Idempotent writes for capture: a spooled event can be ingested twice (the daemon crashed after
 * writing, before deleting the spool file), and must not leave two copies of a memory.
 *
 * A captured memory's id is derived from its event: `<turn time>-<sha256(eventId#index)[0:6]>`,
 * the same shape as every other id (newMemoryId), so a replay computes the same file name and
 * finds it taken. writeMemory (redaction, script guard, defaults, atomic create — PRIV-1/2) picks
 * a random id and has no way to be given one, so the memory is written by writeMemory into a
 * staging folder under the app state dir (`.kioku/`, never read as memories: not a role ID),
 * renamed to its derived id, and linked into place with an exclusive create — if the name is
 * already taken, the replay writes nothing. A crash mid-way can only leave a file in staging.
 *
 * `created` is the turn's time (writeMemory runs on a clock fixed to it), so a memory written
 * from the spool a day later still says when it was said.
 */
export function capturedMemoryId(eventId: string, index: number, at: Date): string {
  const hash = createHash('sha256').update(`${eventId}#${index}`).digest('hex').slice(0, 6);
  return `${formatCompactDateTime(at)}-${hash}`;
}

export function capturedMemoryPath(config: KiokuConfig, roleId: string, category: MemoryCategory, id: string): string {
  return path.join(categoryDir(config.paths.memoryHome, roleId, category), fileNameForId(id));
}

export interface IdempotentWrite {
  id: string;
  path: string;
  /** False when the file already existed (nothing written). */
  written: boolean;
  warnings: string[];
}

export async function writeCapturedMemory(
  config: KiokuConfig,
  roleId: string,
  id: string,
  at: Date,
  draft: MemoryDraft,
): Promise<IdempotentWrite> {
  const target = capturedMemoryPath(config, roleId, draft.category, id);
  if (fs.existsSync(target)) return { id, path: target, written: false, warnings: [] };
  const staging: KiokuConfig = {
    ...config,
    clock: fixedClock(at),
    paths: { ...config.paths, memoryHome: path.join(config.paths.stateDir, 'capture-staging') },
  };
  const staged = await writeMemory(staging, roleId, draft);
  ensureRoleMemoryDirs(config.paths.memoryHome, roleId);
  try {
    const { role: _role, path: _path, ...memory } = staged.memory;
    const written = createFileExclusiveSync(target, serializeMemory({ ...memory, id }));
    return { id, path: target, written, warnings: staged.warnings };
  } finally {
    fs.rmSync(staged.memory.path, { force: true });
  }
}
