import path from 'node:path';
import { roleMemoryDir } from './memory-layout.js';
import { readTextIfExists } from '../../platform/fs/read-if-exists.js';

/**
 * Reading BONDS.md (MEM-7), kept apart from bonds.ts so that the SessionStart load in the hook
 * client can read bonds without loading the write path's redaction and script guard (secretlint,
 * opencc).
 */
/**
 * BONDS.md (MEM-7): one line per bond — the user's own words or the role's real
 * feeling at the time — so that what was said and how it felt survives the merging and
 * summarising every other memory goes through. Append-only: never merged, compressed or
 * forgotten; only the newest 500 are kept, and the same words are never added twice.
 *
 * Boundary (the role skill, to be kept in code and prompts alike): bonds exist to keep closeness
 * consistent and continuous. They must never be used to demand attention, compare how often the
 * user talks to the role, express loss in numbers, or create dependence in any way.
 *
 * Line format, oldest first, one bond per line, meant to be read and edited by people:
 *
 *     - 2026-11-30 21:15 [使用者→角色] 謝謝妳今天一直陪我除錯
 *
 * Parsing is tolerant of hand edits: the list marker may be `-`, `*` or `•` (or missing when the
 * line starts with a date); the time may be `2026/11/30`, with or without a clock time; the
 * direction may sit in [] 【】 () or （）, be written `->` or with spaces, or be the English
 * user→role / role→user / mutual; a line without a direction is still a bond. Headings, HTML
 * comments, blank lines and other prose are kept as they are and ignored.
 */
export type BondDirection = 'user-to-role' | 'role-to-user' | 'mutual';

export const BOND_DIRECTION_LABELS: Record<BondDirection, string> = {
  'user-to-role': '使用者→角色',
  'role-to-user': '角色→使用者',
  mutual: '相互',
};

export interface Bond {
  /** As written in the file (`2026-11-30 21:15`); empty when the line has none. */
  time: string;
  direction: BondDirection | null;
  text: string;
}

export const BONDS_KEPT = 500;
export const BONDS_HEADER = `# 關係史（BONDS）

<!-- Kioku: one bond per line, oldest first: \`- <yyyy-MM-dd HH:mm> [<使用者→角色 | 角色→使用者 | 相互>] <words>\`.
     Append-only; the newest ${BONDS_KEPT} are kept. Edit by hand if you like. -->
`;

export function bondsFile(memoryHome: string, role: string): string {
  return path.join(roleMemoryDir(memoryHome, role), 'BONDS.md');
}

const TIME = /^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?)\s*/;
const BRACKETED = /^[[【(（]\s*([^\]】)）]{1,24}?)\s*[\]】)）]\s*[:：]?\s*/;

function directionOf(label: string): BondDirection | null {
  const key = label
    .replace(/\s+/g, '')
    .replace(/->|=>|＞|>/g, '→')
    .toLowerCase();
  if (key === '使用者→角色' || key === 'user→role') return 'user-to-role';
  if (key === '角色→使用者' || key === 'role→user') return 'role-to-user';
  if (key === '相互' || key === '雙向' || key === 'mutual' || key === '↔') return 'mutual';
  return null;
}

/** One line of BONDS.md as a bond, or undefined for headings, comments and prose. */
export function parseBondLine(line: string): Bond | undefined {
  let rest = line.trim();
  const marker = /^[-*•]\s+/.exec(rest);
  if (marker) rest = rest.slice(marker[0].length);
  const time = TIME.exec(rest);
  if (!marker && !time) return undefined;
  if (time) rest = rest.slice(time[0].length);
  let direction: BondDirection | null = null;
  const bracketed = BRACKETED.exec(rest);
  if (bracketed) {
    direction = directionOf(bracketed[1]!);
    if (direction) rest = rest.slice(bracketed[0].length);
  }
  const text = rest.trim();
  return text ? { time: time?.[1] ?? '', direction, text } : undefined;
}

export function formatBondLine(bond: Bond): string {
  const label = bond.direction ? ` [${BOND_DIRECTION_LABELS[bond.direction]}]` : '';
  return `- ${bond.time}${label} ${bond.text}`;
}

export function readBondLines(file: string): string[] {
  // A role's first days have no bonds file: asked first rather than caught (read-if-exists.ts).
  return readTextIfExists(file)?.split(/\r?\n/) ?? [];
}

/** The newest `count` bonds, newest first (all of them when count is omitted). */
export function readBonds(memoryHome: string, role: string, count?: number): Bond[] {
  const bonds = readBondLines(bondsFile(memoryHome, role))
    .map(parseBondLine)
    .filter((bond): bond is Bond => bond !== undefined)
    .reverse();
  return count === undefined ? bonds : bonds.slice(0, Math.max(0, count));
}
