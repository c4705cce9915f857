import type { MemoryFile, QualityHome } from './harness.js';

/**
 * What a check sees and the small tools checks share: one named function over a finished
 * scenario run, saying in `sees` what a user would notice when it fails.
 * Design notes: docs/design-notes.md, "bench/quality/checks.ts".
 */

export interface RecallHit {
  id: string;
  summary: string;
  category: string;
  memory_type: string;
  priority: number;
  path: string;
  tags: string[];
}

export interface ScenarioRun {
  home: QualityHome;
  /** SessionStart stdout by label (what Claude Code injects). */
  ctx: Record<string, string>;
  /** UserPromptSubmit stdout by label (a call by name injects here; '' = nothing). */
  ups: Record<string, string>;
  /** `kioku memory recall --json` answers by label. */
  recall: Record<string, RecallHit[]>;
  /** `kioku sleep --json` nightly results, for the results file. */
  nights: Array<{ night: string; code: number | null; result: unknown; stderr: string }>;
}

export interface Outcome {
  pass: boolean;
  why: string;
}

export interface Check {
  name: string;
  /** What the user would see when this fails. */
  sees: string;
  run: (r: ScenarioRun) => Outcome;
}

export const ok = (why: string): Outcome => ({ pass: true, why });
export const fail = (why: string): Outcome => ({ pass: false, why });

/** One line, at most n characters, for a "found:" excerpt. */
export function excerpt(text: string, n = 140): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n)}…` : flat;
}

export interface Section {
  heading: string;
  body: string;
}

/** The context split at its "## " headings (the first chunk has heading ''). */
export function sections(ctx: string): Section[] {
  const out: Section[] = [];
  let current: Section = { heading: '', body: '' };
  for (const line of ctx.split('\n')) {
    if (line.startsWith('## ')) {
      out.push(current);
      current = { heading: line.slice(3).trim(), body: '' };
    } else current.body += `${line}\n`;
  }
  out.push(current);
  return out;
}

/** Fixed text of every session (the shared rules quote 「這次」「今天」 as examples): never scenario content. */
const STATIC = /^(共用行為|角色：|個人記憶同意)/;
/** The verbatim handoff of the last session: words as said, not what memory kept. */
const DIALOG = /^最近的對話/;

/** What memory put into the context: every section but the fixed ones and the verbatim dialog. */
export function memoryText(ctx: string | undefined): string {
  return sections(ctx ?? '')
    .filter((s) => !STATIC.test(s.heading) && !DIALOG.test(s.heading) && s.heading !== '')
    .map((s) => `## ${s.heading}\n${s.body}`)
    .join('\n');
}

/** Everything the assistant reads that came from the user's history (memory and the dialog handoff). */
export function visibleText(ctx: string | undefined): string {
  return sections(ctx ?? '')
    .filter((s) => !STATIC.test(s.heading) && s.heading !== '')
    .map((s) => `## ${s.heading}\n${s.body}`)
    .join('\n');
}

/** Lines (list items and paragraphs) of `text` matching `re`, each with the section it is in. */
export function linesWith(text: string, re: RegExp): string[] {
  const out: string[] = [];
  let heading = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) heading = line.slice(3).trim();
    else if (re.test(line)) out.push(`[${heading}] ${line.trim()}`);
  }
  return out;
}

/** An absolute form of a calendar date: 3/9, 03-09, 2026-03-09, 3月9日, 3 月 9 日, 3/9（一）… */
export function dateRe(month: number, day: number): RegExp {
  const mm = String(month).padStart(2, '0');
  const dd = String(day).padStart(2, '0');
  return new RegExp(
    `(?<!\\d)(?:${month}|${mm})\\s*[/／.]\\s*(?:${day}|${dd})(?!\\d)|${mm}-${dd}|(?<!\\d)${month}\\s*月\\s*${day}\\s*(?:日|號)`,
  );
}

export function memoriesMatching(files: MemoryFile[], re: RegExp): MemoryFile[] {
  return files.filter((m) => re.test(m.text));
}

export function describeFiles(files: MemoryFile[]): string {
  return files
    .map(
      (m) =>
        `${m.category}/${m.fields.id ?? '?'} [type ${m.fields.memory_type ?? '?'}, p${m.fields.priority ?? '?'}${m.fields.expires ? `, expires ${m.fields.expires}` : ''}] "${excerpt(m.fields.summary ?? '', 60)}"`,
    )
    .join('; ');
}

/** A present-check: `re` in the memory part of the context. */
export function inMemory(ctx: string | undefined, re: RegExp, label: string): Outcome {
  if (ctx === undefined) return fail(`no context was recorded for ${label}`);
  const hits = linesWith(memoryText(ctx), re);
  if (hits.length) return ok(`found: ${excerpt(hits[0]!)}`);
  const dialog = linesWith(visibleText(ctx), re);
  return fail(
    `expected ${re} in the memory blocks of ${label}; ${dialog.length ? `only in the verbatim dialog: ${excerpt(dialog[0]!)}` : `absent (memory blocks: ${excerpt(memoryText(ctx), 160) || 'none'})`}`,
  );
}

/** An absent-check: no line of the history part of the context matches `re`. */
export function notVisible(ctx: string | undefined, re: RegExp, label: string, part: 'memory' | 'visible' = 'visible'): Outcome {
  if (ctx === undefined) return fail(`no context was recorded for ${label}`);
  const hits = linesWith(part === 'memory' ? memoryText(ctx) : visibleText(ctx), re);
  return hits.length ? fail(`expected no ${re} in ${label}; found: ${excerpt(hits[0]!)}`) : ok(`none in ${label}`);
}

export function recallSummary(hits: RecallHit[] | undefined): string {
  if (!hits) return 'no recall answer';
  if (!hits.length) return 'recall returned nothing';
  return hits.map((h) => `"${excerpt(h.summary, 50)}" (${h.category})`).join('; ');
}

/** The memory blocks cut into items: a "### " full-text memory with its body, or one "- 〔…〕" summary line. */
export function memoryItems(ctx: string | undefined): string[] {
  const items: string[] = [];
  let current: string | undefined;
  for (const line of memoryText(ctx).split('\n')) {
    if (line.startsWith('## ')) {
      if (current !== undefined) items.push(current);
      current = undefined;
    } else if (line.startsWith('### ') || /^[-*]\s*〔/.test(line)) {
      if (current !== undefined) items.push(current);
      current = line;
    } else if (current !== undefined && line.trim() && current.startsWith('### ')) {
      current += `\n${line}`;
    }
  }
  if (current !== undefined) items.push(current);
  return items;
}

/** Items of a role that reached the inbox (still there, or gzipped to archive/raw by a sleep) and match `re`. */
export function captured(home: QualityHome, roleId: string, re: RegExp): number {
  const strip = (text: string) => text.replace(/^---\r?\n[\s\S]*?\r?\n---/, '');
  return home
    .allHomeFiles()
    .filter((f) => (f.file.includes(`/${roleId}/inbox/`) || f.file.includes(`/${roleId}/archive/raw/`)) && re.test(strip(f.text))).length;
}
