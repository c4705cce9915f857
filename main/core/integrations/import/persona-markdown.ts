import { classifyRoleHeading, splitRoleMarkdown, type MarkdownSection } from '../../store/roles/role-sections.js';

/**
 * Persona text written for other tools (seed 001's persona files, seed 002's SOUL.md) read into
 * Kioku's role sections (ROLE-1). Headings are matched like role files (classifyRoleHeading),
 * plus the words those tools use — also in Simplified Chinese, because seed 002's users write
 * Simplified and the script guard runs only after this split. A heading that names none of
 * them stays a section of its own, carried verbatim (ROLE-1: any other `##` section is injected).
 */
type Kind = 'nature' | 'vibe' | 'source' | 'relationship' | 'signature';

const MORE_WORDS: Record<Kind, readonly string[]> = {
  nature: ['本质', '身分', '身份', '性格', '人設', '人设', '設定', '设定', 'identity', 'personality', 'persona', 'soul', '靈魂', '灵魂'],
  vibe: ['氛围', '語氣', '语气', '口吻', '說話方式', '说话方式', 'tone', 'voice'],
  source: ['来源', '出處', '出处', 'origin', 'background'],
  relationship: ['关系定位', '關係', '关系', 'relation'],
  signature: ['签名', '签名emoji'],
};

function kindOf(heading: string): Kind | 'shared' | undefined {
  const known = classifyRoleHeading(heading);
  if (known) return known;
  const text = heading.trim().toLowerCase();
  const leading = text.split(/[\s（(:：]/, 1)[0] ?? '';
  const inParentheses = /[（(]\s*([^）)]+?)\s*[）)]/.exec(text)?.[1] ?? '';
  for (const [kind, words] of Object.entries(MORE_WORDS) as [Kind, readonly string[]][]) {
    if (words.includes(leading) || words.includes(inParentheses) || words.includes(text.replace(/\s+/g, ''))) return kind;
  }
  return undefined;
}

export interface PersonaSections {
  title: string | undefined;
  /** Text before the first `##` (the title line excluded). */
  preamble: string;
  nature: string;
  vibe: string;
  source: string;
  relationship: string;
  signature: string;
  /** Every other section, in file order; a repeated known section is kept here, never dropped. */
  extra: MarkdownSection[];
}

export function readPersonaMarkdown(body: string): PersonaSections {
  const markdown = splitRoleMarkdown(body);
  const found: Partial<Record<Kind, string>> = {};
  const extra: MarkdownSection[] = [];
  for (const section of markdown.sections) {
    const kind = kindOf(section.heading);
    // seed 000 roles may still carry the shared-rules block: it is injected apart, never copied.
    if (kind === 'shared') continue;
    if (kind && found[kind] === undefined && section.body.trim()) found[kind] = section.body;
    else extra.push(section);
  }
  return {
    title: markdown.title,
    preamble: markdown.preamble,
    nature: found.nature ?? '',
    vibe: found.vibe ?? '',
    source: found.source ?? '',
    relationship: found.relationship ?? '',
    signature: found.signature ?? '',
    extra,
  };
}
