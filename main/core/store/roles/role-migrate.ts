import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { createFileExclusiveSync } from '../../platform/fs/atomic-write.js';
import { parseLegacyRole } from './role-definition.js';
import { readRoleFileText, roleFilePaths } from './role-repository.js';
import { serializeIdentity, serializeSoul } from './role-serialize.js';

export interface MigrationResult {
  id: string;
  legacyFile: string;
  /** The files with the text they get (or would get, on a dry run). */
  writes: { path: string; text: string }[];
  dryRun: boolean;
  /** Fields written as fill-in placeholders because the legacy file had no such section. */
  placeholders: ('source' | 'relationship')[];
  /** True when the legacy file carried the shared-rules block, which is not carried over. */
  droppedSharedBlock: boolean;
}

/**
 * `role migrate <ID>` (ROLE-2): split `<ID>.md` into `.identity.md` and
 * `.soul.md`. Nature, vibe and the other persona sections go verbatim into the soul; id, name,
 * emoji, aliases, preamble and signature into the identity with `created` kept; source and
 * relationship get fill-in placeholders unless the file had them. The legacy file is never
 * touched, and nothing is written when either new file already exists.
 */
export function migrateLegacyRole(config: KiokuConfig, id: string, options: { dryRun: boolean }): MigrationResult {
  const files = roleFilePaths(config.paths.roleHome, id);
  if (!fs.existsSync(files.legacy)) {
    throw new KiokuError('NOT_FOUND', `role ${id} has no legacy file ${files.legacy}`, {
      hint: fs.existsSync(files.identity) ? `role ${id} already uses the two-file format` : 'list the roles with `kioku role list`',
    });
  }
  const existing = [files.identity, files.soul].filter((file) => fs.existsSync(file));
  if (existing.length > 0) {
    throw new KiokuError(
      'REFUSED',
      `not migrating role ${id}: ${existing.join(' and ')} already exist${existing.length === 1 ? 's' : ''}`,
      {
        path: existing[0],
        hint: 'the two-file format is already there and wins over the legacy file; compare them by hand, or move the new files away and migrate again',
      },
    );
  }
  const legacy = parseLegacyRole(id, readRoleFileText(files.legacy));
  const role = { ...legacy, updated: formatLocalIso(config.clock.now()), created: legacy.created || formatLocalIso(config.clock.now()) };
  const writes = [
    { path: files.identity, text: serializeIdentity(role) },
    { path: files.soul, text: serializeSoul(role) },
  ];
  const result: MigrationResult = {
    id,
    legacyFile: files.legacy,
    writes,
    dryRun: options.dryRun,
    placeholders: (['source', 'relationship'] as const).filter((field) => !legacy[field]),
    droppedSharedBlock: legacy.hadSharedBlock,
  };
  if (options.dryRun) return result;
  const created: string[] = [];
  for (const write of writes) {
    if (!createFileExclusiveSync(write.path, write.text)) {
      // Someone wrote it between the check and now: undo our half so the role stays as it was.
      for (const file of created) fs.rmSync(file, { force: true });
      throw new KiokuError('REFUSED', `not migrating role ${id}: ${path.basename(write.path)} appeared while migrating`, {
        path: write.path,
        hint: 'run `kioku role migrate` again once nothing else writes the role',
      });
    }
    created.push(write.path);
  }
  return result;
}
