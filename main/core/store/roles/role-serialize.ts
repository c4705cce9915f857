import { stringifyFrontmatter } from '../../platform/frontmatter/stringify-frontmatter.js';
import type { RoleDefinition } from './role-definition.js';
import { STANDARD_HEADINGS, fillInPlaceholder } from './role-sections.js';

/**
 * Writes a RoleDefinition as the two-file format of ROLE-1. Pure. Headings keep
 * the wording the role already used (`## Nature` stays English); unknown values get fill-in
 * placeholders (ROLE-2) instead of being invented.
 */
export const SOURCE_PLACEHOLDER = fillInPlaceholder('角色出自哪部作品、正式名稱、背景設定；原創角色寫「原創」與設定概要');
export const RELATIONSHIP_PLACEHOLDER = fillInPlaceholder('與使用者的關係、偏好的稱呼、必須守住的邊界');

/**
 * Blank lines around a block go (and its final newline); every line of it stays as written:
 * leading spaces (indented code) and trailing spaces (a Markdown hard break) alike, so what
 * splitRoleMarkdown read is written back verbatim.
 */
function trimOuterBlankLines(text: string): string {
  return text.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/(?:\r?\n[ \t]*)+$/, '');
}

function section(heading: string, body: string): string {
  return `## ${heading}\n\n${trimOuterBlankLines(body)}`;
}

function joinBlocks(blocks: string[]): string {
  return blocks.map(trimOuterBlankLines).filter(Boolean).join('\n\n').concat('\n');
}

/** `<ID>.identity.md`: who the role is (frontmatter id, name, emoji, aliases, created, updated). */
export function serializeIdentity(role: RoleDefinition): string {
  const data: Record<string, unknown> = {
    id: role.id,
    name: role.name,
    emoji: role.emoji,
    // the role skill writes aliases as one comma-separated string; it reads back either way.
    aliases: role.aliases.length > 0 ? role.aliases.join(', ') : null,
    created: role.created,
    updated: role.updated,
    ...role.extraFields,
  };
  const headings = { ...STANDARD_HEADINGS, ...role.headings };
  const body = joinBlocks([
    `# ${role.name}`,
    role.preamble,
    section(headings.source, role.source || SOURCE_PLACEHOLDER),
    section(headings.relationship, role.relationship || RELATIONSHIP_PLACEHOLDER),
    section(headings.signature, role.signature || role.emoji),
    ...role.extraSections.filter((extra) => extra.origin === 'identity').map((extra) => section(extra.heading, extra.body)),
  ]);
  return stringifyFrontmatter(data, body);
}

/** `<ID>.soul.md`: how the role thinks (nature, vibe, then every other persona section). */
export function serializeSoul(role: RoleDefinition): string {
  const headings = { ...STANDARD_HEADINGS, ...role.headings };
  const soulExtras = role.extraSections.filter((extra) => extra.origin === 'soul');
  const body = joinBlocks([
    ...soulExtras.filter((extra) => extra.heading === '').map((extra) => extra.body),
    section(headings.nature, role.nature),
    section(headings.vibe, role.vibe),
    ...soulExtras.filter((extra) => extra.heading !== '').map((extra) => section(extra.heading, extra.body)),
  ]);
  return stringifyFrontmatter({ id: role.id, updated: role.updated }, body);
}
