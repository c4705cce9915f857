import type { RoleDefinition } from '../../store/roles/role-definition.js';
import { STANDARD_HEADINGS } from '../../store/roles/role-sections.js';
import { textBlock, type ContextBlock } from './context-block.js';
import { languageOfRole, say, type ContextLanguage } from '../../platform/text/context-language.js';

/**
 * The SOUL block (ROLE-6): identity and soul with every section the user wrote; aliases are
 * only for calls by name. The text is the user's, injected as written (DSH-7).
 * Design notes: docs/design-notes.md, "main/core/engine/context/soul-block.ts".
 */
type KnownSection = 'source' | 'relationship' | 'signature' | 'nature' | 'vibe';

const ENGLISH_HEADINGS: Record<KnownSection, string> = {
  source: 'Source',
  relationship: 'Relationship',
  signature: 'Signature emoji',
  nature: 'Nature',
  vibe: 'Vibe',
};

/** Identity sections first, then the soul's, as the two files are read (ROLE-1). */
const ORDER: readonly KnownSection[] = ['source', 'relationship', 'signature', 'nature', 'vibe'];

function headingFor(role: RoleDefinition, kind: KnownSection, language: ContextLanguage): string {
  return role.headings[kind] ?? (language === 'zh-TW' ? STANDARD_HEADINGS[kind] : ENGLISH_HEADINGS[kind]);
}

function section(heading: string, body: string): string {
  return heading ? `### ${heading}\n${body}` : body;
}

export function soulBlock(role: RoleDefinition, language: ContextLanguage = languageOfRole(role)): ContextBlock {
  const title = [role.name, role.emoji].filter(Boolean).join(' ');
  const pieces = [
    say(language, `## 角色：${title}（ID：${role.id}）`, `## Role: ${title} (ID: ${role.id})`),
    say(
      language,
      `這個工作階段的助理以「${role.name}」的身分回應；角色決定語氣與表達，不改變工作的正確性。`,
      `In this session the assistant answers as ${role.name}; the role shapes voice and expression, never the correctness of the work.`,
    ),
  ];
  if (role.preamble) pieces.push(role.preamble);
  const identity = ORDER.slice(0, 3);
  for (const kind of identity) if (role[kind]) pieces.push(section(headingFor(role, kind, language), role[kind]));
  // Identity's own free sections belong with the identity; soul sections follow nature and vibe.
  const fromIdentity = role.extraSections.filter((extra) => extra.origin === 'identity');
  const fromSoul = role.extraSections.filter((extra) => extra.origin === 'soul' && extra.body);
  for (const extra of fromIdentity) if (extra.body) pieces.push(section(extra.heading, extra.body));
  // A heading of '' is loose soul text (written before the soul's first `##`): printed where it
  // stood, before nature, and without a heading.
  for (const extra of fromSoul) if (!extra.heading) pieces.push(extra.body);
  for (const kind of ORDER.slice(3)) if (role[kind]) pieces.push(section(headingFor(role, kind, language), role[kind]));
  for (const extra of fromSoul) if (extra.heading) pieces.push(section(extra.heading, extra.body));
  return textBlock(pieces.join('\n\n'));
}
