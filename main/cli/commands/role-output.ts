import type { FieldChange } from '../../core/store/roles/role-change-table.js';
import type { RoleDefinition } from '../../core/store/roles/role-definition.js';
import { roleListItem, type RoleSummary } from '../../core/store/roles/role-summary.js';
import { renderTable } from './role-text-table.js';

/** What `role list` and `role show` print, for people and for `--json` (CLI.md shapes). */

export function roleListTable(roles: RoleSummary[]): string {
  const rows = roles.map((role) => [
    role.id,
    role.problem ? '(unreadable)' : role.name,
    role.emoji,
    role.natureFirstLine,
    role.updated,
    role.active ? '*' : '',
    role.memoryDir,
    String(role.memoryCount),
  ]);
  return renderTable(['ID', 'name', 'emoji', 'nature', 'updated', 'active', 'memory folder', 'memories'], rows, [
    16,
    24,
    8,
    36,
    25,
    6,
    Infinity,
    8,
  ]);
}

export function roleListJson(roles: RoleSummary[]) {
  return roles.map((role) => ({ ...roleListItem(role), memoryDir: role.memoryDir }));
}

export function roleShowJson(role: RoleDefinition) {
  return {
    id: role.id,
    name: role.name,
    emoji: role.emoji,
    aliases: role.aliases,
    nature: role.nature,
    vibe: role.vibe,
    format: role.format,
    source: role.source,
    relationship: role.relationship,
    signature: role.signature,
    preamble: role.preamble,
    sections: role.extraSections.map((section) => ({ heading: section.heading, body: section.body, origin: section.origin })),
    files: role.files,
    created: role.created,
    updated: role.updated,
  };
}

function block(title: string, text: string): string {
  return `${title}\n${(text || '(empty)').replace(/^/gm, '  ')}`;
}

export function roleShowText(role: RoleDefinition): string {
  const head = [
    `${role.emoji} ${role.name} (${role.id})`,
    `  format:  ${role.format === 'split' ? 'two files (identity + soul)' : 'legacy single file (split it with `kioku role migrate`)'}`,
    `  aliases: ${role.aliases.join(', ') || '(none)'}  (used for calling by name only; never injected)`,
    `  created: ${role.created || '?'}   updated: ${role.updated || '?'}`,
    ...role.files.map((file) => `  file:    ${file}`),
  ].join('\n');
  const parts = [
    head,
    ...(role.preamble ? [block('preamble', role.preamble)] : []),
    block('source', role.source),
    block('relationship', role.relationship),
    block('signature', role.signature),
    block('nature', role.nature),
    block('vibe', role.vibe),
    ...role.extraSections.map((section) => block(`## ${section.heading || '(text before the first section)'}`, section.body)),
  ];
  if (role.hadSharedBlock) parts.push('note: the shared-rules block in the file is ignored; Kioku injects the shared rules itself');
  return parts.join('\n\n');
}

/**
 * The old/new table of ROLE-5. Long values are cut in the table, so every changed field is also
 * shown in full below it: the user confirms exactly what will be written.
 */
export function changeTableText(changes: FieldChange[]): string {
  const table = renderTable(
    ['field', 'old', 'new', 'changed'],
    changes.map((change) => [change.field, change.old, change.new, change.changed ? 'yes' : 'no']),
    [12, 36, 36, 7],
  );
  const details = changes.filter((change) => change.changed).map((change) => block(`new ${change.field}:`, change.new));
  return details.length > 0 ? `${table}\n\n${details.join('\n')}` : table;
}
