import fs from 'node:fs';
import path from 'node:path';
import type { KiokuConfig } from '../../platform/config/config.js';
import { formatLocalDateTime } from '../../platform/config/clock.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { withLock } from '../../platform/fs/file-lock.js';
import { cleanForStorage } from '../../platform/privacy/clean-for-storage.js';
import { roleMemoryDir } from './memory-layout.js';

/**
 * DIGESTS.md (MEM-10, seed 000 §整理摘要保留歷史): `state.json`'s `last_sleep_digest` keeps only
 * the latest consolidation and is overwritten, so the history is kept here for people to look
 * back on — newest first, the last 100 — and never injected into a session.
 *
 * One entry per consolidation:
 *
 *     ## 2026/11/30 03:00:12
 *     整理了 4 則待整理記憶，合併 1 則關於 build 的重複內容。
 *     - applied: created 3, merged 1, discarded 0, forgotten 2
 *     - record: plan:20261130030012-3f2a9c1d
 *     - reason: catch-up
 *
 * `record` names what the entry came from (a plan in `.sleep/applied/`, or a forgetting pass in
 * `.sleep/forgetting/`), so the UI can list its memories; `reason` why the run happened. Both
 * are absent in entries written before they were kept, which still read as before.
 */
export interface DigestEntry {
  time: string;
  summary: string;
  /** What the consolidation applied: created, merged, discarded, forgotten, … */
  applied: Record<string, number>;
  /** `plan:<id>` or `forgetting:<id>`. */
  record?: string;
  /** manual, sleep, nap, catch-up. */
  reason?: string;
}

export const DIGESTS_KEPT = 100;
const HEADER = `# 整理摘要（DIGESTS）

<!-- Kioku: one entry per consolidation, newest first; the last ${DIGESTS_KEPT} are kept. Never injected into a session. -->
`;
const APPLIED = /^-\s*(?:applied|套用)\s*[:：]\s*(.*)$/i;
const RECORD = /^-\s*record\s*:\s*((?:plan|forgetting):[A-Za-z0-9._-]+)\s*$/;
const REASON = /^-\s*reason\s*:\s*([a-z-]+)\s*$/;

export function digestsFile(memoryHome: string, role: string): string {
  return path.join(roleMemoryDir(memoryHome, role), 'DIGESTS.md');
}

/** The file as its preamble plus one raw text block per entry (kept byte for byte on rewrite). */
function splitDigests(text: string): { preamble: string; sections: string[] } {
  const parts = text.split(/^(?=## )/m);
  const preamble = parts[0]?.startsWith('## ') ? '' : (parts.shift() ?? '');
  return { preamble, sections: parts };
}

function parseSection(section: string): DigestEntry {
  const [heading = '', ...lines] = section.replace(/\s+$/, '').split(/\r?\n/);
  const applied: Record<string, number> = {};
  const summary: string[] = [];
  const extra: Pick<DigestEntry, 'record' | 'reason'> = {};
  for (const line of lines) {
    const record = RECORD.exec(line.trim());
    const reason = REASON.exec(line.trim());
    if (record || reason) {
      if (record) extra.record = record[1]!;
      if (reason) extra.reason = reason[1]!;
      continue;
    }
    const counts = APPLIED.exec(line.trim());
    if (!counts) {
      summary.push(line.replace(/^\\#/, '#'));
      continue;
    }
    for (const part of counts[1]!.split(/[,，、]/)) {
      const m = /^\s*(.+?)\s+(\d+)\s*$/.exec(part);
      if (m) applied[m[1]!] = Number(m[2]);
    }
  }
  return { time: heading.replace(/^##\s*/, '').trim(), summary: summary.join('\n').trim(), applied, ...extra };
}

function formatSection(entry: DigestEntry): string {
  // A summary line starting with "#" would read as a new entry; escape it as Markdown does.
  const summary = entry.summary.replace(/^#/gm, '\\#');
  const counts = Object.entries(entry.applied).map(([key, n]) => `${key} ${n}`);
  const record = entry.record ? `- record: ${entry.record}\n` : '';
  const reason = entry.reason ? `- reason: ${entry.reason}\n` : '';
  return `## ${entry.time}\n${summary}\n${counts.length ? `- applied: ${counts.join(', ')}\n` : ''}${record}${reason}\n`;
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/** Digests newest first (the file's order), at most `count`. */
export function readDigests(memoryHome: string, role: string, count?: number): DigestEntry[] {
  const { sections } = splitDigests(readText(digestsFile(memoryHome, role)));
  const wanted = count === undefined ? sections : sections.slice(0, Math.max(0, count));
  return wanted.map(parseSection);
}

/** Record one consolidation at the top; entries beyond DIGESTS_KEPT fall off the bottom. */
export async function appendDigest(
  config: KiokuConfig,
  role: string,
  input: { summary: string; applied: Record<string, number>; record?: string; reason?: string },
): Promise<{ entry: DigestEntry; warnings: string[] }> {
  const cleaned = await cleanForStorage(input.summary.trim());
  const entry: DigestEntry = {
    time: formatLocalDateTime(config.clock.now()),
    summary: cleaned.text,
    applied: { ...input.applied },
    ...(input.record && RECORD.test(`- record: ${input.record}`) ? { record: input.record } : {}),
    ...(input.reason && REASON.test(`- reason: ${input.reason}`) ? { reason: input.reason } : {}),
  };
  const file = digestsFile(config.paths.memoryHome, role);
  withLock(`${file}.lock`, { purpose: 'append a digest', waitMs: 5_000, staleMs: 60_000 }, () => {
    const { preamble, sections } = splitDigests(readText(file));
    const head = preamble.trim() ? `${preamble.replace(/\s+$/, '')}\n\n` : `${HEADER}\n`;
    const kept = sections.slice(0, DIGESTS_KEPT - 1).map((section) => `${section.replace(/\s+$/, '')}\n\n`);
    writeFileAtomicSync(file, `${head}${formatSection(entry)}${kept.join('')}`.replace(/\n+$/, '\n'));
  });
  return { entry, warnings: cleaned.warnings };
}
