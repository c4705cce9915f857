/**
 * The text of the morning brief (BRIEF-1, seed 000 §--brief): each script's output capped at
 * ROLE_BRIEF_EACH_LIMIT, the whole at ROLE_BRIEF_LIMIT (逾時與長度 … 輸出受 `ROLE_BRIEF_EACH_LIMIT` 與
 * `ROLE_BRIEF_LIMIT` 截斷). Cuts fall at a line end, never in the middle of a line (a half line
 * reads like broken data — the same lesson as seed 000 §工作階段交接's "不可 … slice 硬切"), and
 * always say how much was cut. Lengths are in characters (code points), as the seed's limits are.
 */

const length = (text: string) => Array.from(text).length;

export interface CutText {
  text: string;
  /** Characters left out. */
  cut: number;
}

/**
 * At most `limit` characters, ending at the last line end inside the limit; a single line longer
 * than the limit is cut at the limit (there is no line end to cut at).
 */
export function cutAtLineEnd(text: string, limit: number): CutText {
  const chars = Array.from(text);
  if (chars.length <= limit) return { text, cut: 0 };
  const head = chars.slice(0, Math.max(0, limit)).join('');
  const lineEnd = head.lastIndexOf('\n');
  const kept = (lineEnd > 0 ? head.slice(0, lineEnd) : head).replace(/\s+$/, '');
  return { text: kept, cut: chars.length - length(kept) };
}

// ANSI colour and cursor codes (a script written for a terminal), and other control characters.
const TERMINAL_CODES = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-Z\\-_]|[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** A script's output as text for a memory: terminal codes gone, line ends unified, no blank edges. */
export function normalizeOutput(raw: string): string {
  return raw
    .replace(/\r\n?/g, '\n')
    .replace(TERMINAL_CODES, '')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

export const cutNote = (cut: number) => `（以下截斷 ${cut} 字）`;

/** One script's part of the brief. */
export interface BriefSection {
  name: string;
  /** Cleaned and capped output; may be empty for a script that timed out silently. */
  text: string;
  /** What went wrong, in the user's language (timeout, could not start); undefined when fine. */
  trouble?: string;
  cut: number;
}

export function sectionText(section: BriefSection): string {
  const lines = [`## ${section.name}`];
  if (section.text) lines.push(section.text);
  if (section.cut > 0) lines.push(cutNote(section.cut));
  if (section.trouble) lines.push(`（${section.trouble}）`);
  return lines.join('\n');
}

export interface ComposedBrief {
  summary: string;
  body: string;
  /** Characters cut by the total limit (each section's own cut is in its note). */
  totalCut: number;
}

/** The first line with something in it, shortened for a summary. */
function firstLine(sections: readonly BriefSection[]): string {
  for (const section of sections) {
    const line = (section.text || section.trouble || '').split('\n').find((l) => l.trim());
    if (line) {
      const chars = Array.from(line.trim());
      return chars.length > 60 ? `${chars.slice(0, 59).join('')}…` : chars.join('');
    }
  }
  return '';
}

/**
 * The memory's summary and body. The heading line and the sections are cut together at the total
 * limit (the heading is short; what matters is that the scripts' text never exceeds the limit by
 * more than the notes that say what was cut).
 */
export function composeBrief(sections: readonly BriefSection[], totalLimit: number, stamp: string): ComposedBrief {
  const joined = sections.map(sectionText).join('\n\n');
  const capped = cutAtLineEnd(joined, totalLimit);
  const parts = [`晨間狀態檢查（${stamp}），${sections.length} 個檢查腳本有回報：`, '', capped.text];
  if (capped.cut > 0) parts.push('', `（晨報合計超過 ${totalLimit} 字，以下截斷 ${capped.cut} 字）`);
  const more = sections.length > 1 ? `（另有 ${sections.length - 1} 項）` : '';
  return { summary: `晨間狀態檢查：${firstLine(sections)}${more}`, body: parts.join('\n'), totalCut: capped.cut };
}
