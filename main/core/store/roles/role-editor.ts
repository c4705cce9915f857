import fs from 'node:fs';
import { KiokuError } from '../../../../common/errors.js';
import { explainInvalidNewRoleId, explainInvalidRoleId } from '../../../../common/role-id.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { createFileExclusiveSync, writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { ensureRoleMemoryDirs } from '../memory/memory-layout.js';
import { readActiveRoleId, writeActiveRoleId } from './role-active.js';
import { confirmTokenFor, diffRoleFields, fingerprintRoleFiles, type FieldChange } from './role-change-table.js';
import type { RoleDefinition } from './role-definition.js';
import { nextRoleId, prefixFromName } from './role-next-id.js';
import { loadAllRoles, readRoleDefinition, roleFilePaths, roleFilesExist, type RoleFilePaths } from './role-repository.js';
import { serializeIdentity, serializeSoul } from './role-serialize.js';

/** What `role new` was given; a field left undefined keeps its old value on update (ROLE-5). */
export interface RoleInput {
  id?: string;
  prefix?: string;
  name?: string;
  nature?: string;
  vibe?: string;
  emoji?: string;
  aliases?: string[];
  source?: string;
  relationship?: string;
}

export type RolePlan =
  | { kind: 'create'; role: RoleDefinition; paths: RoleFilePaths }
  | {
      kind: 'update';
      current: RoleDefinition;
      role: RoleDefinition;
      paths: RoleFilePaths;
      changes: FieldChange[];
      /** Show this and wait: the change is applied only when the same token comes back. */
      token: string;
      filesFingerprint: string;
    };

const SINGLE_LINE_FIELDS = ['name', 'emoji'] as const;

function checkInput(input: RoleInput): void {
  if (input.id !== undefined) {
    const problem = explainInvalidRoleId(input.id);
    if (problem)
      throw new KiokuError('INVALID_ID', problem, { hint: 'role IDs look like ENGINEER01; or leave --id out to get the next free one' });
  }
  for (const field of SINGLE_LINE_FIELDS) {
    if (input[field] !== undefined && /[\r\n]/.test(input[field]!)) {
      throw new KiokuError('BAD_USAGE', `--${field} must be one line`, { hint: `remove the line breaks from --${field}` });
    }
  }
}

/** The role a `role new` run is about: --id, else a unique display-name match when no --prefix is given. */
function findExisting(config: KiokuConfig, input: RoleInput): string | undefined {
  const roleHome = config.paths.roleHome;
  if (input.id !== undefined) return roleFilesExist(roleHome, input.id) ? input.id : undefined;
  if (input.prefix !== undefined || !input.name) return undefined;
  const matches = loadAllRoles(roleHome).filter((entry) => entry.definition?.name === input.name);
  if (matches.length > 1) {
    throw new KiokuError('AMBIGUOUS', `more than one role is named "${input.name}": ${matches.map((entry) => entry.id).join(', ')}`, {
      hint: 'say which one with --id, or pass --prefix to create another role with this name',
    });
  }
  return matches[0]?.id;
}

function planCreate(config: KiokuConfig, input: RoleInput): RolePlan {
  const required = ['name', 'nature', 'vibe', 'emoji'] as const;
  const missing = required.filter((field) => !input[field]);
  if (missing.length > 0) {
    throw new KiokuError('BAD_USAGE', `a new role needs ${missing.map((field) => `--${field}`).join(', ')}`, {
      hint: 'give every missing value; Kioku never guesses a character',
    });
  }
  const name = input.name!;
  let id = input.id;
  if (id === undefined) {
    const prefix = input.prefix ?? prefixFromName(name);
    if (!prefix) {
      throw new KiokuError(
        'BAD_USAGE',
        `cannot make a role ID from the name "${name}"; the ID is an English uppercase word plus two digits`,
        {
          hint: 'pass --prefix with an English word for what the role is, e.g. --prefix ENGINEER',
        },
      );
    }
    id = nextRoleId(config.paths, prefix);
  }
  const now = formatLocalIso(config.clock.now());
  const paths = roleFilePaths(config.paths.roleHome, id);
  const role: RoleDefinition = {
    id,
    name,
    emoji: input.emoji!,
    aliases: input.aliases ?? [],
    created: now,
    updated: now,
    preamble: '',
    source: input.source ?? '',
    relationship: input.relationship ?? '',
    signature: input.emoji!,
    nature: input.nature!,
    vibe: input.vibe!,
    extraSections: [],
    format: 'split',
    files: [paths.identity, paths.soul],
    headings: {},
    extraFields: {},
    hadSharedBlock: false,
  };
  return { kind: 'create', role, paths };
}

function planUpdate(config: KiokuConfig, id: string, input: RoleInput): RolePlan {
  const paths = roleFilePaths(config.paths.roleHome, id);
  const current = readRoleDefinition(config.paths.roleHome, id);
  const emoji = input.emoji || current.emoji;
  const role: RoleDefinition = {
    ...current,
    name: input.name || current.name,
    nature: input.nature || current.nature,
    vibe: input.vibe || current.vibe,
    emoji,
    aliases: input.aliases ?? current.aliases,
    source: input.source ?? current.source,
    relationship: input.relationship ?? current.relationship,
    // A signature that was just the emoji follows the emoji; a mood-sheet text (ROLE-10) stays.
    signature: !current.signature || current.signature === current.emoji ? emoji : current.signature,
    format: 'split',
    files: [paths.identity, paths.soul],
  };
  const filesFingerprint = fingerprintRoleFiles(paths);
  return {
    kind: 'update',
    current,
    role,
    paths,
    changes: diffRoleFields(current, role),
    token: confirmTokenFor(filesFingerprint, role),
    filesFingerprint,
  };
}

/** Work out what `role new` would do. Reads files only; never writes. */
export function planRoleChange(config: KiokuConfig, input: RoleInput): RolePlan {
  checkInput(input);
  const existing = findExisting(config, input);
  if (existing) return planUpdate(config, existing, input);
  // Only a role that does not exist yet needs an ID of the new-role shape (see common/role-id.ts).
  const newIdProblem = input.id === undefined ? undefined : explainInvalidNewRoleId(input.id);
  if (newIdProblem)
    throw new KiokuError('INVALID_ID', newIdProblem, {
      hint: 'choose a longer prefix, or leave --id out and give --prefix to get the next free ID',
    });
  return planCreate(config, input);
}

export interface CreatedRole {
  role: RoleDefinition;
  memoryDir: string;
  /** True when the new role became the active one (there was none). */
  madeActive: boolean;
}

/** Write a new role, its memory folders, and `.active` when there is none (ROLE-8, MEM-1, ROLE-4). */
export function createRole(config: KiokuConfig, plan: Extract<RolePlan, { kind: 'create' }>): CreatedRole {
  const { role, paths } = plan;
  const taken = () =>
    new KiokuError('ALREADY_EXISTS', `role ${role.id} already has files in ${config.paths.roleHome}`, {
      hint: `update it with \`kioku role new --id ${role.id} …\`, or leave --id out to get the next free ID`,
    });
  if (!createFileExclusiveSync(paths.identity, serializeIdentity(role))) throw taken();
  if (!createFileExclusiveSync(paths.soul, serializeSoul(role))) {
    fs.unlinkSync(paths.identity);
    throw taken();
  }
  const memoryDir = ensureRoleMemoryDirs(config.paths.memoryHome, role.id);
  const madeActive = readActiveRoleId(config.paths.roleHome) === undefined;
  if (madeActive) writeActiveRoleId(config.paths.roleHome, role.id);
  return { role, memoryDir, madeActive };
}

/**
 * Apply a confirmed update. The token must be the plan's, and the files must still be what the
 * table was computed from; otherwise nothing is written (ROLE-5). A legacy role is written in
 * the two-file format, which wins from then on; its old file is left as it was.
 */
export function applyRoleUpdate(config: KiokuConfig, plan: Extract<RolePlan, { kind: 'update' }>, confirmToken: string): RoleDefinition {
  const filesNow = fingerprintRoleFiles(plan.paths);
  if (confirmToken.trim().toLowerCase() !== plan.token || filesNow !== plan.filesFingerprint) {
    throw new KiokuError(
      'CONFIRM_NEEDED',
      `confirm token "${confirmToken}" does not match this change of role ${plan.role.id}; nothing was written`,
      {
        hint: 'the files or the options differ from when that token was shown; check the new table and confirm its token',
      },
    );
  }
  const role: RoleDefinition = { ...plan.role, updated: formatLocalIso(config.clock.now()) };
  writeFileAtomicSync(plan.paths.identity, serializeIdentity(role));
  writeFileAtomicSync(plan.paths.soul, serializeSoul(role));
  return role;
}
