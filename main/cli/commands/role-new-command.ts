import { toStringList } from '../../core/store/memory/memory-file.js';
import { applyRoleUpdate, createRole, planRoleChange, type RoleInput, type RolePlan } from '../../core/store/roles/role-editor.js';
import type { CliContext } from '../cli-context.js';
import { askForConfirmation, promptYes } from './confirm-change.js';
import { changeTableText } from './role-output.js';

export interface RoleNewOptions {
  name?: string;
  nature?: string;
  vibe?: string;
  emoji?: string;
  prefix?: string;
  id?: string;
  aliases?: string;
  source?: string;
  relationship?: string;
  confirm?: string;
  json?: boolean;
}

const RESTART_REMINDER = 'Start a new assistant session to load it: SessionStart runs only when a session starts.';

function inputFrom(options: RoleNewOptions): RoleInput {
  const text = (value: string | undefined) => (value === undefined ? undefined : value.trim());
  return {
    id: options.id,
    prefix: options.prefix,
    name: text(options.name),
    nature: text(options.nature),
    vibe: text(options.vibe),
    emoji: text(options.emoji),
    aliases: options.aliases === undefined ? undefined : toStringList(options.aliases),
    source: text(options.source),
    relationship: text(options.relationship),
  };
}

function reportCreated(ctx: CliContext, plan: Extract<RolePlan, { kind: 'create' }>, json: boolean): void {
  const { role, memoryDir, madeActive } = createRole(ctx.config, plan);
  if (json) {
    ctx.printJson({ action: 'created', id: role.id, name: role.name, emoji: role.emoji, files: role.files, memoryDir, active: madeActive });
    return;
  }
  ctx.print(
    [
      `Created role ${role.name} ${role.emoji} (${role.id})`,
      `  identity: ${plan.paths.identity}`,
      `  soul:     ${plan.paths.soul}`,
      `  memory:   ${memoryDir}`,
      `  active:   ${madeActive ? 'yes (there was no active role)' : `no; switch with \`kioku role use ${role.id}\``}`,
      RESTART_REMINDER,
    ].join('\n'),
  );
}

type UpdatePlan = Extract<RolePlan, { kind: 'update' }>;

function reportUpdated(ctx: CliContext, plan: UpdatePlan, token: string, json: boolean): void {
  const role = applyRoleUpdate(ctx.config, plan, token);
  const changed = plan.changes.filter((change) => change.changed);
  const legacyKept = plan.current.format === 'legacy' ? plan.paths.legacy : undefined;
  if (json) {
    ctx.printJson({
      action: 'updated',
      id: role.id,
      name: role.name,
      changes: plan.changes,
      files: role.files,
      ...(legacyKept ? { legacyFileKept: legacyKept } : {}),
    });
    return;
  }
  const lines = [
    `Updated role ${role.name} (${role.id}): ${changed.map((change) => change.field).join(', ')}`,
    `  identity: ${plan.paths.identity}`,
    `  soul:     ${plan.paths.soul}`,
  ];
  if (legacyKept)
    lines.push(
      `The role was a legacy single file; it is now written as two files, which win from now on. ${legacyKept} was left as it was.`,
    );
  if (plan.current.hadSharedBlock) lines.push('The shared-rules block was not carried over: Kioku injects the shared rules itself.');
  lines.push(RESTART_REMINDER);
  ctx.print(lines.join('\n'));
}

/** Show the table and the token, write nothing, exit 3 (ROLE-5; no --yes exists on purpose). */
function askToConfirmUpdate(ctx: CliContext, plan: UpdatePlan, json: boolean, reason: string): never {
  return askForConfirmation(ctx, {
    json,
    jsonReply: { confirmNeeded: true, id: plan.role.id, token: plan.token, changes: plan.changes },
    proposal: [`Role ${plan.current.name} (${plan.role.id}) exists. Proposed change:`, '', changeTableText(plan.changes)],
    token: plan.token,
    reason,
  });
}

/** `kioku role new`: create a role, or update one after its old/new table was confirmed. */
export async function runRoleNew(ctx: CliContext, options: RoleNewOptions): Promise<void> {
  const json = Boolean(options.json);
  const plan = planRoleChange(ctx.config, inputFrom(options));
  if (plan.kind === 'create') return reportCreated(ctx, plan, json);
  if (!plan.changes.some((change) => change.changed)) {
    if (json) ctx.printJson({ action: 'unchanged', id: plan.role.id, changes: plan.changes });
    else ctx.print(`Role ${plan.current.name} (${plan.role.id}) already has these values; nothing to change.`);
    return;
  }
  if (options.confirm !== undefined) {
    if (options.confirm.trim().toLowerCase() === plan.token) return reportUpdated(ctx, plan, plan.token, json);
    askToConfirmUpdate(
      ctx,
      plan,
      json,
      `confirm token "${options.confirm}" does not match this change of role ${plan.role.id} (the files or the options differ from when it was shown)`,
    );
  }
  if (ctx.interactive && !json) {
    ctx.print([`Role ${plan.current.name} (${plan.role.id}) exists. Proposed change:`, '', changeTableText(plan.changes), ''].join('\n'));
    if (await promptYes('Apply? [y/N] ')) return reportUpdated(ctx, plan, plan.token, json);
    ctx.print('Nothing was written.');
    return;
  }
  askToConfirmUpdate(ctx, plan, json, `role ${plan.role.id} exists and the change needs confirming`);
}
