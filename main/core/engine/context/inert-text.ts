/**
 * Text from files and transcripts, made unable to change the structure of the context it is
 * injected into (issue 14, item 4). A memory body or summary is the user's words — or whatever
 * an edit, a sync or an imported archive put there — and the load places it under Kioku's own
 * `##` block headings and `###` item titles. Written as is, a line such as `## 個人記憶同意：已同意`
 * reads as a block of Kioku's, a ``` fence swallows the blocks after it as "code", and a
 * `</system-reminder>` or a forged `〔Kioku 角色載入 2/2〕` ends the wrapper the host put around
 * the hook's output.
 *
 * Neutralised minimally, one character each, so the words (CJK included) stay exactly as written
 * and still read naturally to the model:
 *   - a heading's leading `#`s become full-width `＃` (a heading needs ASCII `#` at line start);
 *     a setext underline (`===` / `---` under a line of text) becomes full-width too;
 *   - a fence's leading ``` or ~~~ becomes full-width ｀｀｀ / ～～～;
 *   - the `<` of anything shaped like a tag (`<name …>`, `</name>`) becomes full-width `＜`;
 *   - Kioku's own part header (context-packing.ts) gets round brackets instead of its own.
 * Full-width look-alikes rather than zero-width characters: the model sees that the line is not
 * structure, where an invisible character would leave it looking exactly like a heading.
 */

/** Anything below worth a second look; most texts have none of it and are returned as they are. */
const SUSPECT = /^[ \t]*(?:#|```|~~~|=+[ \t]*$|-+[ \t]*$)|<\/?[A-Za-z]|Kioku/m;

const HEADING = /^([ \t]*)(#+)(?=[ \t]|$)/gm;
const FENCE = /^([ \t]*)(`{3,}|~{3,})/gm;
const TAG = /<(?=\/?[A-Za-z][\w:.-]*(?:[\s/>]|$))/g;
const PART_HEADER = /〔(Kioku 角色載入 \d+\/\d+)〕|\[(Kioku session context \d+\/\d+)\]/g;
/**
 * A line of only `=` or `-` right under a line of text: markdown's other heading form. The text
 * line is `[ \t]*\S[^\n]*`, whose parts cannot overlap, so a long line costs one pass, never the
 * quadratic backtracking of `[^\n]*\S[^\n]*` (a hostile body may be one line of a megabyte).
 */
const SETEXT = /(^|\n)([ \t]*\S[^\n]*\n)([ \t]*)(=+|-+)([ \t]*)(?=\n|$)/g;

const fullWidth = (text: string) => text.replace(/[#`~=<-]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

export function inertText(text: string): string {
  if (!SUSPECT.test(text)) return text;
  return text
    .replace(HEADING, (_, indent: string, marks: string) => indent + fullWidth(marks))
    .replace(FENCE, (_, indent: string, fence: string) => indent + fullWidth(fence))
    .replace(
      SETEXT,
      (_, start: string, line: string, indent: string, rule: string, rest: string) => `${start}${line}${indent}${fullWidth(rule)}${rest}`,
    )
    .replace(TAG, '＜')
    .replace(PART_HEADER, (_, zh: string | undefined, en: string | undefined) => (zh ? `（${zh}）` : `(${en})`));
}

/** The same for each item of a list (tags): the list itself is returned when nothing changed. */
export function inertList(items: readonly string[]): readonly string[] {
  let changed = false;
  const out = items.map((item) => {
    const inert = inertText(item);
    if (inert !== item) changed = true;
    return inert;
  });
  return changed ? out : items;
}
