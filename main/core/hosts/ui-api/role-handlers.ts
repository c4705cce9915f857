import { KiokuError } from '../../../../common/errors.js';
import type {
  ActiveRoleSet,
  RoleArchived,
  RoleChangePlan,
  RoleCreated,
  RoleDetail,
  RoleList,
  RoleUpdated,
  UiParsedRequest,
} from '../../../../common/ui-contract.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { listMemoryFiles } from '../../store/memory/memory-layout.js';
import { resolveCurrentRole, writeActiveRoleId } from '../../store/roles/role-active.js';
import { archiveRole } from '../../store/roles/role-archive.js';
import { applyRoleUpdate, createRole, planRoleChange, type RoleInput, type RolePlan } from '../../store/roles/role-editor.js';
import { readRoleOrder, sortByRoleOrder, writeRoleOrder } from '../../store/roles/role-order.js';
import { readRoleDefinition, roleFilesExist } from '../../store/roles/role-repository.js';
import { listRoleSummaries, roleListItem } from '../../store/roles/role-summary.js';
import { tagErrors } from './ui-error-of.js';

/**
 * The role channels of the UI contract, each a few lines over main/core/store/roles — the same code
 * `kioku role …` runs, so the app and the CLI can never disagree about what a change does.
 */

export function listRoles(config: KiokuConfig): RoleList {
  const { roles, current, currentProblem } = listRoleSummaries(config);
  const ordered = sortByRoleOrder(roles, readRoleOrder(config.paths.roleHome));
  return {
    roles: ordered.map(roleListItem),
    activeRole: current?.id ?? null,
    activeSource: current?.source ?? null,
    activeProblem: currentProblem ?? null,
  };
}

function currentRoleId(config: KiokuConfig): string | undefined {
  try {
    return resolveCurrentRole(config)?.id;
  } catch {
    return undefined; // a broken `.active` makes no role active; roles.list reports why
  }
}

export function getRole(config: KiokuConfig, id: string): RoleDetail {
  const role = readRoleDefinition(config.paths.roleHome, id);
  return {
    id: role.id,
    name: role.name,
    emoji: role.emoji,
    aliases: role.aliases,
    nature: role.nature,
    vibe: role.vibe,
    source: role.source,
    relationship: role.relationship,
    created: role.created,
    updated: role.updated,
    format: role.format,
    active: currentRoleId(config) === role.id,
    memoryCount: listMemoryFiles(config.paths.memoryHome, role.id).length,
    files: role.files,
  };
}

/** Trim what the user typed, as `kioku role new` does; an empty alias is no alias. */
function roleInputFrom(input: UiParsedRequest<'roles.create'>['input'] | UiParsedRequest<'roles.planChange'>['input']): RoleInput {
  const text = (value: string | undefined) => (value === undefined ? undefined : value.trim());
  return {
    id: input.id,
    prefix: 'prefix' in input ? input.prefix : undefined,
    name: text(input.name),
    nature: text(input.nature),
    vibe: text(input.vibe),
    emoji: text(input.emoji),
    aliases: input.aliases?.map((alias) => alias.trim()).filter(Boolean),
    source: text(input.source),
    relationship: text(input.relationship),
  };
}

export function createRoleFromUi(config: KiokuConfig, request: UiParsedRequest<'roles.create'>): RoleCreated {
  const idField = request.input.id !== undefined ? 'id' : request.input.prefix !== undefined ? 'prefix' : 'name';
  const plan = tagErrors(
    () => planRoleChange(config, roleInputFrom(request.input)),
    (error) =>
      error.code === 'AMBIGUOUS'
        ? { reason: 'role.nameAmbiguous', field: 'name' }
        : error.code === 'INVALID_ID'
          ? { field: idField }
          : undefined,
  );
  if (plan.kind === 'update') {
    // The create form never overwrites: an existing role is changed only through the ROLE-5 table.
    throw new KiokuError('ALREADY_EXISTS', `role ${plan.current.id} (${plan.current.name}) already exists`, {
      hint: 'edit that role instead, or give a prefix or another name to create a new one',
      reason: 'role.exists',
      reasonValues: { id: plan.current.id, name: plan.current.name },
      field: request.input.id !== undefined ? 'id' : 'name',
    });
  }
  const { role, madeActive } = tagErrors(
    () => createRole(config, plan),
    (error) =>
      error.code === 'ALREADY_EXISTS' ? { reason: 'role.idTaken', reasonValues: { id: plan.role.id }, field: idField } : undefined,
  );
  return { id: role.id, name: role.name, emoji: role.emoji, madeActive };
}

type UpdatePlan = Extract<RolePlan, { kind: 'update' }>;

/** Plan an edit of a role that exists; the ID names it (a display name never does here). */
function planEdit(config: KiokuConfig, input: UiParsedRequest<'roles.planChange'>['input']): UpdatePlan {
  if (!roleFilesExist(config.paths.roleHome, input.id)) {
    throw new KiokuError('NOT_FOUND', `no role ${input.id} in ${config.paths.roleHome}`, {
      hint: 'it may have been archived or renamed; reload the role list',
      reason: 'role.notFound',
      reasonValues: { id: input.id },
    });
  }
  const plan = planRoleChange(config, roleInputFrom(input));
  if (plan.kind !== 'update') throw new KiokuError('NOT_FOUND', `no role ${input.id} in ${config.paths.roleHome}`);
  return plan;
}

export function planRoleEdit(config: KiokuConfig, request: UiParsedRequest<'roles.planChange'>): RoleChangePlan {
  const plan = planEdit(config, request.input);
  return {
    id: plan.role.id,
    changes: plan.changes,
    token: plan.token,
    changed: plan.changes.some((change) => change.changed),
    legacy: plan.current.format === 'legacy',
  };
}

/** Re-plan from the same input and apply only when the token still matches (ROLE-5). */
export function applyRoleEdit(config: KiokuConfig, request: UiParsedRequest<'roles.applyChange'>): RoleUpdated {
  const plan = planEdit(config, request.input);
  const changed = plan.changes.filter((change) => change.changed).map((change) => change.field);
  if (changed.length > 0) {
    tagErrors(
      () => applyRoleUpdate(config, plan, request.token),
      (error) => (error.code === 'CONFIRM_NEEDED' ? { reason: 'role.changedSince', reasonValues: { id: plan.role.id } } : undefined),
    );
  }
  return { id: plan.role.id, changed, role: getRole(config, plan.role.id) };
}

export function archiveRoleFromUi(config: KiokuConfig, id: string): RoleArchived {
  const archived = tagErrors(
    () => archiveRole(config, id),
    (error) =>
      error.code === 'REFUSED'
        ? { reason: 'role.isActive', reasonValues: { id } }
        : error.code === 'LOCKED'
          ? { reason: 'role.locked', reasonValues: { id } }
          : error.code === 'NOT_FOUND'
            ? { reason: 'role.notFound', reasonValues: { id } }
            : undefined,
  );
  return { id: archived.id, roleArchiveDir: archived.roleArchiveDir, memoryArchiveDir: archived.memoryArchiveDir ?? null };
}

export function setActiveRole(config: KiokuConfig, id: string): ActiveRoleSet {
  // Reading the definition proves the role exists and is readable before `.active` names it.
  readRoleDefinition(config.paths.roleHome, id);
  writeActiveRoleId(config.paths.roleHome, id);
  const fromEnv = config.settings.ROLE_NAME?.trim();
  return { activeRole: id, overriddenBy: fromEnv && fromEnv !== id ? fromEnv : null };
}

export function reorderRoles(config: KiokuConfig, order: string[]): { order: string[] } {
  return { order: writeRoleOrder(config.paths.roleHome, order) };
}
