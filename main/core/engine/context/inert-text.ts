/**
 * Text from files and transcripts, made unable to change the structure of the context it is
 * injected into (issue 14, item 4), one full-width look-alike character at a time.
 * Design notes: docs/design-notes.md, "main/core/engine/context/inert-text.ts".
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
