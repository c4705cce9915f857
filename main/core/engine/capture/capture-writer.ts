import { createHash } from 'node:crypto';
import type { MemoryCategory } from '../../../../common/memory.js';
import { formatCompactDateTime, formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { memoryFilePath, writeMemory, type MemoryDraft, type WrittenMemory } from '../../store/memory/memory-writer.js';

/**
 * Idempotent writes for capture: a spooled event can be ingested twice (the daemon crashed after
 * writing, before deleting the spool file), so a captured memory's id is derived from its event and
 * a replay finds the file taken and writes nothing. `created` is the turn's time, so a memory
 * written from the spool a day later still says when it was said.
 */
export function capturedMemoryId(eventId: string, index: number, at: Date): string {
  const hash = createHash('sha256').update(`${eventId}#${index}`).digest('hex').slice(0, 6);
  return `${formatCompactDateTime(at)}-${hash}`;
}

export function capturedMemoryPath(config: KiokuConfig, roleId: string, category: MemoryCategory, id: string): string {
  return memoryFilePath(config.paths.memoryHome, roleId, category, id);
}

export function writeCapturedMemory(config: KiokuConfig, roleId: string, id: string, at: Date, draft: MemoryDraft): Promise<WrittenMemory> {
  const stamp = formatLocalIso(at);
  return writeMemory(config, roleId, { ...draft, id, created: stamp, updated: stamp });
}
