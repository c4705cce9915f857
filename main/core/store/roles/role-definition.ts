import { KiokuError } from '../../../../common/errors.js';
import { parseLooseDate } from '../../platform/config/clock.js';
import { isRefusedYaml } from '../../platform/frontmatter/guarded-yaml.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { toStringList } from '../memory/memory-file.js';
import {
  classifyRoleHeading,
  isFillInPlaceholder,
  splitRoleMarkdown,
  type MarkdownSection,
  type RoleSectionKind,
} from './role-sections.js';

/**
 * A role as Kioku understands it, whatever its format on disk (ROLE-1, ROLE-2). Pure: parsing
 * takes file texts, never paths to read, so the hook client can build SessionStart injection on
 * it. Injection rules (ROLE-6): id, name, emoji, preamble, source,
 * relationship, signature, nature, vibe and every extra section are injected; aliases are not
 * (they are for calling a role by name only).
 */
export interface RoleDefinition {
  id: string;
  name: string;
  emoji: string;
  aliases: string[];
  created: string;
  updated: string;
  /** Identity text between `# <name>` and the first `##` (e.g. archetype bullet points). */
  preamble: string;
  source: string;
  relationship: string;
  signature: string;
  nature: string;
  vibe: string;
  /**
   * Every other `##` section, in file order (identity's first, then soul's). Text in the soul
   * file before its first `##` is kept here with an empty heading, so nothing written is lost.
   */
  extraSections: RoleExtraSection[];
  format: 'split' | 'legacy';
  /** The files this definition was read from. */
  files: string[];
  /** The headings as written for the known sections, so a rewrite keeps `## Nature` English. */
  headings: Partial<Record<Exclude<RoleSectionKind, 'shared'>, string>>;
  /** Identity (or legacy) frontmatter keys Kioku does not use, kept on rewrite. */
  extraFields: Record<string, unknown>;
  /** True when a file carried the shared-rules block, which is ignored (it is injected apart). */
  hadSharedBlock: boolean;
}

export interface RoleExtraSection extends MarkdownSection {
  origin: 'identity' | 'soul';
}

export interface RoleFileText {
  path: string;
  text: string;
}

const IDENTITY_KEYS = new Set(['id', 'name', 'emoji', 'aliases', 'created', 'updated']);

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).trim();
}

/** The later of two frontmatter dates, as written (either file of a role may be edited alone). */
function laterDate(a: string, b: string): string {
  const timeA = parseLooseDate(a)?.getTime() ?? -Infinity;
  const timeB = parseLooseDate(b)?.getTime() ?? -Infinity;
  return timeB > timeA ? b : a;
}

function readFrontmatter(file: RoleFileText) {
  try {
    return parseFrontmatter(file.text);
  } catch (error) {
    throw new KiokuError('INVALID_FILE', `${file.path}: ${(error as Error).message}`, {
      path: file.path,
      hint: isRefusedYaml(error)
        ? 'write the values out in full (no &name anchors or *name aliases)'
        : 'close the frontmatter block with a line holding only "---"',
    });
  }
}

interface SortedSections {
  known: Partial<Record<RoleSectionKind, MarkdownSection>>;
  extra: MarkdownSection[];
}

/** The first section of each kind counts; a repeated one is kept as an extra, never dropped. */
function sortSections(sections: MarkdownSection[]): SortedSections {
  const known: SortedSections['known'] = {};
  const extra: MarkdownSection[] = [];
  for (const section of sections) {
    const kind = classifyRoleHeading(section.heading);
    if (kind === 'shared') known.shared ??= section;
    else if (kind && !known[kind]) known[kind] = section;
    else extra.push(section);
  }
  return { known, extra };
}

function sectionText(section: MarkdownSection | undefined): string {
  if (!section || isFillInPlaceholder(section.body)) return '';
  return section.body;
}

function requireSection(sorted: SortedSections, kind: 'nature' | 'vibe', file: RoleFileText): string {
  const text = sectionText(sorted.known[kind]);
  if (text) return text;
  const heading = kind === 'nature' ? '## 本質（nature）' : '## 氛圍（vibe）';
  throw new KiokuError('INVALID_FILE', `${file.path} has no ${heading} section (or it is empty)`, {
    path: file.path,
    hint: `add a "${heading}" section; every role file needs it`,
  });
}

function headingsOf(sorted: SortedSections): RoleDefinition['headings'] {
  const headings: RoleDefinition['headings'] = {};
  for (const kind of ['source', 'relationship', 'signature', 'nature', 'vibe'] as const) {
    const section = sorted.known[kind];
    if (section) headings[kind] = section.heading;
  }
  return headings;
}

function extraFieldsOf(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => !IDENTITY_KEYS.has(key)));
}

function identityPart(id: string, file: RoleFileText) {
  const { data, body } = readFrontmatter(file);
  const markdown = splitRoleMarkdown(body);
  const name = scalarText(data.name) || markdown.title?.trim() || '';
  if (!name) {
    throw new KiokuError('INVALID_FILE', `${file.path} has no display name (frontmatter "name" or a "# <name>" title)`, {
      path: file.path,
      hint: 'add "name: <display name>" to the frontmatter',
    });
  }
  return {
    id,
    name,
    emoji: scalarText(data.emoji),
    aliases: toStringList(data.aliases),
    created: scalarText(data.created),
    updated: scalarText(data.updated),
    preamble: markdown.preamble,
    sorted: sortSections(markdown.sections),
    extraFields: extraFieldsOf(data),
  };
}

/** The two-file format: `<ID>.identity.md` + `<ID>.soul.md` (ROLE-1). */
export function parseSplitRole(id: string, identity: RoleFileText, soul: RoleFileText): RoleDefinition {
  const who = identityPart(id, identity);
  const soulFile = readFrontmatter(soul);
  const soulMarkdown = splitRoleMarkdown(soulFile.body);
  const soulSorted = sortSections(soulMarkdown.sections);
  // A soul file has no title of its own; loose text before its first `##` is still the user's.
  const soulLoose = [soulMarkdown.title ? `# ${soulMarkdown.title}` : '', soulMarkdown.preamble].filter(Boolean).join('\n\n');
  const extraSections: RoleExtraSection[] = [
    ...who.sorted.extra.map((section) => ({ ...section, origin: 'identity' as const })),
    ...(soulLoose ? [{ heading: '', body: soulLoose, origin: 'soul' as const }] : []),
    ...soulSorted.extra.map((section) => ({ ...section, origin: 'soul' as const })),
  ];
  return {
    id,
    name: who.name,
    emoji: who.emoji,
    aliases: who.aliases,
    created: who.created,
    updated: laterDate(who.updated, scalarText(soulFile.data.updated)),
    preamble: who.preamble,
    source: sectionText(who.sorted.known.source),
    relationship: sectionText(who.sorted.known.relationship),
    signature: sectionText(who.sorted.known.signature),
    nature: requireSection(soulSorted, 'nature', soul),
    vibe: requireSection(soulSorted, 'vibe', soul),
    extraSections,
    format: 'split',
    files: [identity.path, soul.path],
    headings: { ...headingsOf(who.sorted), ...headingsOf(soulSorted) },
    extraFields: who.extraFields,
    hadSharedBlock: Boolean(who.sorted.known.shared ?? soulSorted.known.shared),
  };
}

/**
 * The legacy single file `<ID>.md` (ROLE-2): everything in one file. Its other persona sections
 * belong to the soul; the shared-rules block is dropped (ROLE-2).
 */
export function parseLegacyRole(id: string, legacy: RoleFileText): RoleDefinition {
  const who = identityPart(id, legacy);
  return {
    id,
    name: who.name,
    emoji: who.emoji,
    aliases: who.aliases,
    created: who.created,
    updated: who.updated,
    preamble: who.preamble,
    source: sectionText(who.sorted.known.source),
    relationship: sectionText(who.sorted.known.relationship),
    signature: sectionText(who.sorted.known.signature),
    nature: requireSection(who.sorted, 'nature', legacy),
    vibe: requireSection(who.sorted, 'vibe', legacy),
    extraSections: who.sorted.extra.map((section) => ({ ...section, origin: 'soul' as const })),
    format: 'legacy',
    files: [legacy.path],
    headings: headingsOf(who.sorted),
    extraFields: who.extraFields,
    hadSharedBlock: Boolean(who.sorted.known.shared),
  };
}

/** The first non-empty line of a text, for tables (ROLE-7: "first line of nature"). */
export function firstLine(text: string): string {
  for (const line of text.split('\n')) {
    const trimmed = line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim();
    if (trimmed) return trimmed;
  }
  return '';
}
