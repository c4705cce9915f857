import fs from 'node:fs';
import path from 'node:path';
import type { StoredMemory } from '../../../../common/memory.js';
import { formatLocalDate, formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { withLock } from '../../platform/fs/file-lock.js';
import { findMemory } from './find-memory.js';
import { parseMemory, serializeMemory } from './memory-file.js';
import { memoryLockFile } from './memory-layout.js';
import { writeMemory } from './memory-writer.js';
import { PINNED } from './pinned.js';
import { SUPERSEDED_AT, SUPERSEDED_BY, supersededSummary } from './superseded.js';

/**
 * Issue 16: the user says a memory is wrong. It is superseded the way consolidation supersedes a
 * replaced preference (superseded.ts): kept for history, labelled 〔已更正〕, never injected as
 * current again, unpinned. With a correction, the correction becomes a new memory of the same
 * category and type, and the old one points to it; without one it points to `user`.
 */
export const MARKED_BY_USER = 'user';

export interface MarkWrongResult {
  memory: StoredMemory;
  /** The memory written from the correction, when one was given. */
  correction?: StoredMemory;
  warnings: string[];
}

export async function markMemoryWrong(config: KiokuConfig, role: string, id: string, correction?: string): Promise<MarkWrongResult> {
  const wrong = findMemory(config.paths.memoryHome, role, id);
  const text = correction?.trim();
  let written: Awaited<ReturnType<typeof writeMemory>> | undefined;
  if (text) {
    written = await writeMemory(config, role, {
      category: wrong.category,
      body: text,
      memory_type: wrong.memory_type,
      priority: wrong.priority,
      tags: wrong.tags,
      relevance: ['explicit'],
      declarative: 'explicit',
      extra: wrong.extra[PINNED] ? { [PINNED]: true } : {},
    });
  }
  const byId = written?.memory.id ?? MARKED_BY_USER;
  const now = config.clock.now();
  const memory = withLock(memoryLockFile(config.paths.memoryHome, role), { purpose: 'mark wrong', waitMs: 10_000 }, () => {
    const found = findMemory(config.paths.memoryHome, role, id);
    const current = parseMemory(fs.readFileSync(found.path, 'utf8'), {
      folderCategory: found.category,
      fileId: path.basename(found.path, '.md'),
    });
    const line = written ? `- ${formatLocalDate(now)}：使用者標記為錯誤，改以 ${byId} 為準` : `- ${formatLocalDate(now)}：使用者標記為錯誤`;
    const extra: Record<string, unknown> = { ...current.extra, [SUPERSEDED_BY]: byId, [SUPERSEDED_AT]: formatLocalIso(now) };
    delete extra[PINNED];
    const next = {
      ...current,
      summary: supersededSummary(current.summary),
      body: current.body.includes(line) ? current.body : `${current.body.replace(/\s+$/u, '')}\n\n${line}`.trimStart(),
      updated: formatLocalIso(now),
      extra,
    };
    writeFileAtomicSync(found.path, serializeMemory(next));
    return { ...next, role, path: found.path };
  });
  return { memory, ...(written ? { correction: written.memory } : {}), warnings: written?.warnings ?? [] };
}
