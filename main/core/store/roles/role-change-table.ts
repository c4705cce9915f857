import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { RoleDefinition } from './role-definition.js';
import type { RoleFilePaths } from './role-repository.js';
import { serializeIdentity, serializeSoul } from './role-serialize.js';

/** The fields shown old-vs-new before an existing role is overwritten (ROLE-5, seed 000 §--new step 7). */
export const ROLE_TABLE_FIELDS = ['id', 'name', 'nature', 'vibe', 'emoji', 'aliases', 'source', 'relationship'] as const;
export type RoleTableField = (typeof ROLE_TABLE_FIELDS)[number];

export interface FieldChange {
  field: RoleTableField;
  old: string;
  new: string;
  changed: boolean;
}

function fieldText(role: RoleDefinition, field: RoleTableField): string {
  return field === 'aliases' ? role.aliases.join(', ') : role[field];
}

export function diffRoleFields(current: RoleDefinition, proposed: RoleDefinition): FieldChange[] {
  return ROLE_TABLE_FIELDS.map((field) => {
    const before = fieldText(current, field);
    const after = fieldText(proposed, field);
    return { field, old: before, new: after, changed: before !== after };
  });
}

/**
 * What the role's files hold right now: a digest of each definition file's bytes (or its
 * absence). Part of the confirm token, so a file edited after the table was shown voids it.
 */
export function fingerprintRoleFiles(paths: RoleFilePaths): string {
  const hash = createHash('sha256');
  for (const file of [paths.identity, paths.soul, paths.legacy]) {
    let digest = 'absent';
    try {
      digest = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    hash.update(`${file}\0${digest}\n`);
  }
  return hash.digest('hex');
}

/**
 * The confirm token of ROLE-5: a short hash of the current files and of the exact content that
 * would be written. The `updated` time is left out of the content, otherwise a second run one
 * second later could never match.
 */
export function confirmTokenFor(filesFingerprint: string, proposed: RoleDefinition): string {
  const timeless = { ...proposed, updated: '' };
  return createHash('sha256')
    .update(filesFingerprint)
    .update('\0identity\0')
    .update(serializeIdentity(timeless))
    .update('\0soul\0')
    .update(serializeSoul(timeless))
    .digest('hex')
    .slice(0, 10);
}
