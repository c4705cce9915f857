import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { appendDigest } from '../../store/memory/digests.js';
import type { ForgottenMemory } from '../../store/memory/forget.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { APPLIED_KEPT, forgettingDir, planFileName } from './sleep-paths.js';

/**
 * What one consolidation run forgot (SLEEP-4: apply → forget), kept so the sleep history can
 * say which memories faded and where their archived copy is: `.sleep/forgetting/<id>.json`, and
 * a digest entry pointing to it (`- record: forgetting:<id>`). A run that forgot nothing writes
 * neither, as before.
 */
export const forgettingRecordSchema = z.object({
  v: z.literal(1),
  id: z.string(),
  at: z.string(),
  reason: z.string().optional(),
  forgotten: z.array(
    z.object({ id: z.string(), summary: z.string(), category: z.string(), why: z.string(), archive: z.string().optional() }),
  ),
});
export type ForgettingRecord = z.infer<typeof forgettingRecordSchema>;

export function forgettingFile(memoryHome: string, role: string, id: string): string {
  return path.join(forgettingDir(memoryHome, role), planFileName(id));
}

/** The digest's one line: how many, and the first few summaries (people read DIGESTS.md too). */
function forgettingSummary(forgotten: readonly ForgottenMemory[]): string {
  const named = forgotten.slice(0, 3).map((memory) => `「${memory.summary.replace(/\s+/g, ' ').trim()}」`);
  const more = forgotten.length > named.length ? `等 ${forgotten.length} 則` : '';
  return `遺忘了 ${forgotten.length} 則許久沒用到的記憶：${named.join('、')}${more}（原檔已封存，可以還原）。`;
}

/** Record a forgetting pass and its digest entry; returns the digest's warnings. */
export async function recordForgetting(
  config: KiokuConfig,
  role: string,
  id: string,
  forgotten: readonly ForgottenMemory[],
  reason?: string,
): Promise<string[]> {
  if (forgotten.length === 0) return [];
  const memoryHome = config.paths.memoryHome;
  const record: ForgettingRecord = {
    v: 1,
    id,
    at: formatLocalIso(config.clock.now()),
    ...(reason ? { reason } : {}),
    forgotten: forgotten.map((memory) => ({
      id: memory.id,
      summary: memory.summary,
      category: memory.category,
      why: memory.reason,
      ...(memory.archive ? { archive: path.relative(path.join(memoryHome, role), memory.archive) } : {}),
    })),
  };
  const dir = forgettingDir(memoryHome, role);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(forgettingFile(memoryHome, role, id), `${JSON.stringify(record, null, 2)}\n`);
  const kept = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .sort();
  for (const name of kept.slice(0, Math.max(0, kept.length - APPLIED_KEPT))) fs.rmSync(path.join(dir, name), { force: true });
  const digest = await appendDigest(config, role, {
    summary: forgettingSummary(forgotten),
    applied: { forgotten: forgotten.length },
    record: `forgetting:${id}`,
    ...(reason ? { reason } : {}),
  });
  return digest.warnings;
}

/** A forgetting record, or undefined when it is missing or unreadable. */
export function readForgettingRecord(memoryHome: string, role: string, id: string): ForgettingRecord | undefined {
  try {
    return forgettingRecordSchema.parse(JSON.parse(fs.readFileSync(forgettingFile(memoryHome, role, id), 'utf8')));
  } catch {
    return undefined;
  }
}
