import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import type { Memory, StoredMemory } from '../../../../common/memory.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { withLock } from '../../platform/fs/file-lock.js';
import { cleanForStorage } from '../../platform/privacy/clean-for-storage.js';
import { loadRoleMemories, memoryLockFile } from './memory-layout.js';
import { rewriteMemoryFile } from './rewrite-memory.js';

/**
 * PM-4, PM-2: a fuzzy memory may be raised only as a question, never asserted, at most one per
 * turn, and every such probe is recorded so that a denial gets corrected.
 * Design notes: docs/design-notes.md, "main/core/store/memory/probes.ts".
 */
export const PROBE_STATES = ['pending', 'confirmed', 'denied'] as const;
export type ProbeState = (typeof PROBE_STATES)[number];

export interface ProbeChange {
  id: string;
  path: string;
  probe: ProbeState;
  warnings: string[];
}

export interface ProbeAudit {
  role: string;
  counts: Record<ProbeState, number>;
  /** Denied memories still waiting for their correction at the next consolidation. */
  needsCorrection: { id: string; path: string }[];
}

export function probeStateOf(memory: Pick<Memory, 'extra'>): ProbeState | undefined {
  const value = memory.extra.probe;
  return (PROBE_STATES as readonly unknown[]).includes(value) ? (value as ProbeState) : undefined;
}

function findMemory(memoryHome: string, role: string, id: string): StoredMemory {
  const matches = loadRoleMemories(memoryHome, role).memories.filter((memory) => memory.id === id);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new KiokuError('NOT_FOUND', `role ${role} has no memory with id "${id}"`, {
      hint: `find the id with \`kioku memory recall --role ${role} --query …\``,
    });
  }
  throw new KiokuError(
    'AMBIGUOUS',
    `${matches.length} memories of role ${role} have the id "${id}": ${matches.map((m) => m.path).join(', ')}`,
    {
      hint: 'give one of them a new id by hand, then try again',
    },
  );
}

/** Rewrite one memory's probe fields under the role's memory lock. */
function changeProbe(config: KiokuConfig, role: string, id: string, change: (memory: Memory) => Memory): ProbeChange {
  const memoryHome = config.paths.memoryHome;
  return withLock(memoryLockFile(memoryHome, role), { purpose: 'update a probe', waitMs: 10_000 }, () => {
    const target = findMemory(memoryHome, role, id);
    // fileTime: a seed-style file without `created` keeps the date it was read with (its mtime).
    const context = { folderCategory: target.category, fileId: path.basename(target.path, '.md'), fileTime: target.created };
    const written = rewriteMemoryFile(target.path, context, change) ?? target;
    return { id, path: target.path, probe: probeStateOf(written) ?? 'pending', warnings: [] };
  });
}

export async function addProbe(config: KiokuConfig, role: string, id: string, question?: string): Promise<ProbeChange> {
  const cleaned = question?.trim() ? await cleanForStorage(question.trim()) : undefined;
  const stamp = formatLocalIso(config.clock.now());
  const result = changeProbe(config, role, id, (memory) => {
    const extra: Record<string, unknown> = { ...memory.extra, probe: 'pending', probe_updated: stamp };
    if (cleaned) extra.probe_question = cleaned.text;
    delete extra.probe_note;
    return { ...memory, extra };
  });
  return { ...result, warnings: cleaned?.warnings ?? [] };
}

function requireProbe(memory: Memory, id: string, role: string): void {
  if (probeStateOf(memory)) return;
  throw new KiokuError('REFUSED', `memory "${id}" of role ${role} has no probe to close`, {
    hint: `record the question first with \`kioku memory probe add --role ${role} --id ${id} --question …\``,
  });
}

export function confirmProbe(config: KiokuConfig, role: string, id: string): ProbeChange {
  const stamp = formatLocalIso(config.clock.now());
  return changeProbe(config, role, id, (memory) => {
    requireProbe(memory, id, role);
    const extra: Record<string, unknown> = { ...memory.extra, probe: 'confirmed', probe_updated: stamp };
    delete extra.needs_correction;
    return { ...memory, extra };
  });
}

export async function denyProbe(config: KiokuConfig, role: string, id: string, note?: string): Promise<ProbeChange> {
  const cleaned = note?.trim() ? await cleanForStorage(note.trim()) : undefined;
  const stamp = formatLocalIso(config.clock.now());
  const result = changeProbe(config, role, id, (memory) => {
    requireProbe(memory, id, role);
    const extra: Record<string, unknown> = { ...memory.extra, probe: 'denied', probe_updated: stamp, needs_correction: true };
    if (cleaned) extra.probe_note = cleaned.text;
    return { ...memory, extra };
  });
  return { ...result, warnings: cleaned?.warnings ?? [] };
}

/** PM-4 `probe audit`: how many probes are open, confirmed, denied; which denials await correction. */
export function auditProbes(memoryHome: string, role: string): ProbeAudit {
  const counts: Record<ProbeState, number> = { pending: 0, confirmed: 0, denied: 0 };
  const needsCorrection: ProbeAudit['needsCorrection'] = [];
  for (const memory of loadRoleMemories(memoryHome, role).memories) {
    const state = probeStateOf(memory);
    if (state) counts[state] += 1;
    if (memory.extra.needs_correction === true) needsCorrection.push({ id: memory.id, path: memory.path });
  }
  return { role, counts, needsCorrection };
}
