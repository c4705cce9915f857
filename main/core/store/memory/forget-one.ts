import fs from 'node:fs';
import path from 'node:path';
import type { MemoryCategory } from '../../../../common/memory.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { withLock } from '../../platform/fs/file-lock.js';
import { findMemory } from './find-memory.js';
import { archiveFile } from './forget.js';
import { memoryLockFile } from './memory-layout.js';

/**
 * Issue 16: forget one memory now, because the user asked (`kioku memory forget <id>`, the
 * timeline's Forget). Like FORGET-1 it archives the original bytes to archive/forgotten/ and never
 * destroys: `name` is what `memory restore` takes to bring it back (the undo).
 */
export interface ForgetOneResult {
  role: string;
  id: string;
  category: MemoryCategory;
  /** Where the memory was. */
  path: string;
  /** Its gzip copy in archive/forgotten/. */
  archive: string;
  /** The archive's name without .md.gz: pass it to restore. */
  name: string;
}

export function forgetMemory(config: KiokuConfig, role: string, id: string): ForgetOneResult {
  return withLock(memoryLockFile(config.paths.memoryHome, role), { purpose: 'forget', waitMs: 10_000 }, () => {
    const memory = findMemory(config.paths.memoryHome, role, id);
    const archive = archiveFile(config.paths.memoryHome, role, memory, config.clock.now());
    fs.unlinkSync(memory.path);
    return { role, id: memory.id, category: memory.category, path: memory.path, archive, name: path.basename(archive, '.md.gz') };
  });
}
