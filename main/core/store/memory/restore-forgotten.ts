import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { KiokuError } from '../../../../common/errors.js';
import { isCategory, type MemoryCategory } from '../../../../common/memory.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { createFileExclusiveSync } from '../../platform/fs/atomic-write.js';
import { withLock } from '../../platform/fs/file-lock.js';
import { forgetReason, forgottenArchiveDir } from './forget.js';
import { fileNameForId, parseMemory } from './memory-file.js';
import { categoryDir, memoryLockFile } from './memory-layout.js';

/**
 * The inverse of forgetting (FORGET-3: manual tools archive, they never destroy — so what was
 * archived can come back). `archive/forgotten/<name>.md.gz` is unpacked, byte for byte, into its
 * category folder (the `category` in its frontmatter, or the one given), never over an existing
 * file; only then is the archive removed.
 */
export interface RestoreResult {
  role: string;
  id: string;
  category: MemoryCategory;
  /** The archive it came from (now removed). */
  archive: string;
  /** The restored memory file. */
  path: string;
  /** Set when the next forget would archive it again, and why. */
  forgetAgain?: string;
}

function archiveFor(dir: string, name: string): string {
  const base = fileNameForId(name.trim().replace(/\.gz$/, '').replace(/\.md$/, '')).replace(/\.md$/, '');
  return path.join(dir, `${base}.md.gz`);
}

export function restoreForgotten(config: KiokuConfig, role: string, name: string, options: { category?: string } = {}): RestoreResult {
  const dir = forgottenArchiveDir(config.paths.memoryHome, role);
  const archive = archiveFor(dir, name);
  if (!fs.existsSync(archive)) {
    throw new KiokuError('NOT_FOUND', `no forgotten memory "${name}" for ${role}: ${archive} does not exist`, {
      path: archive,
      hint: `the archived ones are listed by \`ls ${dir}\`; pass the name without .md.gz`,
    });
  }
  let bytes: Buffer;
  try {
    bytes = zlib.gunzipSync(fs.readFileSync(archive));
  } catch (error) {
    throw new KiokuError('INVALID_FILE', `${archive} is not a readable gzip file (${(error as Error).message})`, {
      path: archive,
      hint: 'check the file with `gunzip -t`',
    });
  }
  const text = bytes.toString('utf8');
  const stated = String(parseFrontmatter(text).data.category ?? '').trim();
  const wanted = options.category?.trim() || stated;
  if (!isCategory(wanted)) {
    throw new KiokuError(
      'BAD_USAGE',
      wanted ? `category "${wanted}" of ${archive} is not a memory category` : `${archive} does not say which category it came from`,
      {
        hint: 'pass --category daily (or important, interest, news, skill, other, inbox)',
      },
    );
  }
  const category: MemoryCategory = wanted;
  const memory = parseMemory(text, { folderCategory: category, fileId: path.basename(archive, '.md.gz') });
  const target = path.join(categoryDir(config.paths.memoryHome, role, category), path.basename(archive, '.gz'));

  withLock(memoryLockFile(config.paths.memoryHome, role), { purpose: 'restore', waitMs: 10_000 }, () => {
    if (!createFileExclusiveSync(target, bytes)) {
      throw new KiokuError('ALREADY_EXISTS', `${target} already exists; the archive was left as it is`, {
        path: target,
        hint: `compare the two (gunzip -c ${archive} | diff - ${target}) and move one away first`,
      });
    }
    fs.unlinkSync(archive);
  });
  const result: RestoreResult = { role, id: memory.id, category, archive, path: target };
  const again = forgetReason({ ...memory, role, path: target }, config.clock.now());
  if (again) result.forgetAgain = again;
  return result;
}
