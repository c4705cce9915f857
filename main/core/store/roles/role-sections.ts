/**
 * The markdown shape of role files (seed 000 §角色檔標準格式): an optional `# <name>` title,
 * a preamble before the first `##`, then `##` sections. Pure (no fs), so the hook client can
 * use it on its hot path.
 */
export interface MarkdownSection {
  /** The heading text after `## `, as written. */
  heading: string;
  /** The section text, with leading and trailing blank lines removed (inner text verbatim). */
  body: string;
}

export interface RoleMarkdown {
  /** Text of the first `# ` heading before any `##`, if there is one. */
  title: string | undefined;
  preamble: string;
  sections: MarkdownSection[];
}

/** The sections a role file gives a meaning to; every other `##` section is a free one. */
export type RoleSectionKind = 'source' | 'relationship' | 'signature' | 'nature' | 'vibe' | 'shared';

const SECTION_WORDS: Record<RoleSectionKind, readonly string[]> = {
  source: ['來源', 'source'],
  relationship: ['關係定位', 'relationship'],
  signature: ['簽名', '簽名emoji', 'signature'],
  nature: ['本質', 'nature'],
  vibe: ['氛圍', 'vibe'],
  // Legacy files carried a copy of the shared behaviour rules; it is not part of the persona
  // (seed 000 §角色檔標準格式: "共用行為規則不寫入角色檔").
  shared: ['共用行為', 'shared'],
};

/** The standard heading written for each kind when a file is generated. */
export const STANDARD_HEADINGS: Record<Exclude<RoleSectionKind, 'shared'>, string> = {
  source: '來源（source）',
  relationship: '關係定位（relationship）',
  signature: '簽名 emoji',
  nature: '本質（nature）',
  vibe: '氛圍（vibe）',
};

function kindOfWord(word: string): RoleSectionKind | undefined {
  const lower = word.trim().toLowerCase();
  if (!lower) return undefined;
  for (const [kind, words] of Object.entries(SECTION_WORDS) as [RoleSectionKind, readonly string[]][]) {
    if (words.includes(lower)) return kind;
  }
  return undefined;
}

/**
 * What a heading means. Matched by its leading word (`本質（nature）`, `簽名 emoji`), by the
 * English word in full-width or ASCII parentheses (`Persona (nature)`), or by an English heading
 * alone (`Nature`, `Signature emoji`), case-insensitively (ROLE-1).
 */
export function classifyRoleHeading(heading: string): RoleSectionKind | undefined {
  const text = heading.trim();
  const leading = text.split(/[\s（(:：]/, 1)[0] ?? '';
  const inParentheses = /[（(]\s*([^）)]+?)\s*[）)]/.exec(text)?.[1] ?? '';
  return kindOfWord(leading) ?? kindOfWord(inParentheses) ?? kindOfWord(text.replace(/\s+/g, ''));
}

/**
 * Drop the blank lines around a block and keep every other line byte for byte. Trailing spaces
 * are content in Markdown (two of them are a hard line break), and migrate/update promise to
 * carry nature and vibe verbatim (seed 000 §--migrate: 逐字搬進).
 */
function trimBlankLines(lines: string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === '') start++;
  while (end > start && lines[end - 1]!.trim() === '') end--;
  return lines.slice(start, end).join('\n');
}

const FENCE = /^\s{0,3}(```|~~~)/;
const SECTION_HEADING = /^##[ \t]+(.*?)[ \t#]*$/;
const TITLE_HEADING = /^#[ \t]+(.*?)[ \t#]*$/;

/**
 * Split a role file body into title, preamble and `##` sections. `###` and deeper stay inside
 * their section; headings inside fenced code blocks are text, not structure.
 */
export function splitRoleMarkdown(body: string): RoleMarkdown {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  let title: string | undefined;
  const preamble: string[] = [];
  const sections: { heading: string; lines: string[] }[] = [];
  let inFence = false;
  for (const line of lines) {
    if (FENCE.test(line)) inFence = !inFence;
    const current = sections[sections.length - 1];
    const heading = inFence ? undefined : SECTION_HEADING.exec(line);
    if (heading) {
      sections.push({ heading: heading[1]!, lines: [] });
      continue;
    }
    if (current) {
      current.lines.push(line);
      continue;
    }
    const titleMatch = inFence || title !== undefined ? undefined : TITLE_HEADING.exec(line);
    if (titleMatch) title = titleMatch[1]!;
    else preamble.push(line);
  }
  return {
    title,
    preamble: trimBlankLines(preamble),
    sections: sections.map((section) => ({ heading: section.heading, body: trimBlankLines(section.lines) })),
  };
}

/**
 * The fill-in text written where a value is still unknown (seed 000 §--migrate: source and
 * relationship "產生待填空白，需人工補上"). A section holding only this reads as empty, so it is
 * never injected as if it were the role's own words.
 */
export function fillInPlaceholder(what: string): string {
  return `<請補上：${what}>`;
}

export function isFillInPlaceholder(text: string): boolean {
  return /^<請補上[:：][^<>]*>$/.test(text.trim());
}
