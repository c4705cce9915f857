import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { hasWarmth, type MemoryCategory, type MemoryLoadProblem, type MemoryType, type StoredMemory } from '../../../../common/memory.js';
import { formatLocalIso, parseLooseDate } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { createFileExclusiveSync } from '../../platform/fs/atomic-write.js';
import { acquireLock } from '../../platform/fs/file-lock.js';
import { isExpired } from './memory-expiry.js';
import { fileNameForId } from './memory-file.js';
import { loadRoleMemories, memoryLockFile, roleMemoryDir } from './memory-layout.js';
import { updateMemoryState } from './memory-state.js';
import { isPinned } from './pinned.js';
import { applyQueuedReplays, pendingReplays, withReplays } from '../index/replay-queue.js';

/**
 * FORGET-1/2/3, the forgetting table. Only `daily` and `other` fade:
 *
 * | category | not updated for          | hits | priority | and                                   |
 * | daily    | ≥ 14 days (episodic ≥ 7) | ≤ 1  | ≤ 2      | no links, type not rule/preference/    |
 * | other    | ≥ 7 days (episodic ≥ 4)  | ≤ 1  | ≤ 2      | procedural/emotional, not warm (MEM-6) |
 *
 * Emotional memories are exempt because their hits are low by nature (情緒屬內隱記憶，`hits`
 * 天生偏低，用命中次數判斷價值會誤刪); warm ones because 有溫度的記憶優先. Expired date-`expires`
 * memories go first whatever their category or type: a one-time permission must never live on
 * as a rule. Forgetting archives (gzip of the original bytes), it never destroys (FORGET-3).
 */
const DAY_MS = 24 * 60 * 60 * 1000;
const FORGET_AFTER_DAYS: Partial<Record<MemoryCategory, { usual: number; episodic: number }>> = {
  daily: { usual: 14, episodic: 7 },
  other: { usual: 7, episodic: 4 },
};
const NEVER_FORGOTTEN_TYPES: readonly MemoryType[] = ['rule', 'preference', 'procedural', 'emotional'];

export interface ForgottenMemory {
  id: string;
  /** Its one-line summary, for the sleep history (the file itself is archived). */
  summary: string;
  category: MemoryCategory;
  /** Where the memory was (dry run: still is). */
  path: string;
  reason: string;
  /** Where its gzip copy now is; absent on a dry run. */
  archive?: string;
}

export interface ForgetResult {
  role: string;
  forgotten: ForgottenMemory[];
  dryRun: boolean;
  problems: MemoryLoadProblem[];
}

/** Why this memory should be forgotten now, or undefined when it stays. */
export function forgetReason(memory: StoredMemory, now: Date): string | undefined {
  // Pinned by the user (issue 16): kept whatever its age or expiry; an expired one is only not injected.
  if (isPinned(memory)) return undefined;
  if (isExpired(memory, now)) return `expired (expires: ${memory.expires})`;
  const limits = FORGET_AFTER_DAYS[memory.category];
  if (!limits) return undefined;
  if (memory.hits > 1 || memory.priority > 2 || memory.links.length > 0) return undefined;
  if (NEVER_FORGOTTEN_TYPES.includes(memory.memory_type) || hasWarmth(memory)) return undefined;
  const updated = parseLooseDate(memory.updated || memory.created);
  if (!updated) return undefined;
  // FORGET-1's table says "not updated for ≥ 14 days": elapsed time, compared in milliseconds, so a daily
  // memory is kept at 13 days 23:59:59 and goes at exactly 14 × 24 hours — not at the 14th
  // calendar date, and not a day late as a rounded-down day count compared with ">" would be.
  const ageMs = now.getTime() - updated.getTime();
  const limit = memory.memory_type === 'episodic' ? limits.episodic : limits.usual;
  if (ageMs < limit * DAY_MS) return undefined;
  const days = Math.floor(ageMs / DAY_MS);
  return `${memory.category}, not updated for ${days} days (limit ${limit}${memory.memory_type === 'episodic' ? ', episodic' : ''}), hits ${memory.hits}, priority ${memory.priority}`;
}

/** The memories to forget, expired ones first (MEM-8: expired memories are forgotten first). */
export function selectForgettable(memories: readonly StoredMemory[], now: Date): { memory: StoredMemory; reason: string }[] {
  const chosen = memories.flatMap((memory) => {
    const reason = forgetReason(memory, now);
    return reason ? [{ memory, reason, expired: isExpired(memory, now) }] : [];
  });
  return chosen.sort((a, b) => Number(b.expired) - Number(a.expired)).map(({ memory, reason }) => ({ memory, reason }));
}

/** `<memory home>/<ID>/archive/forgotten/`: where forgotten memories wait, gzipped (FORGET-3). */
export function forgottenArchiveDir(memoryHome: string, role: string): string {
  return path.join(roleMemoryDir(memoryHome, role), 'archive', 'forgotten');
}

/** gzip the file's original bytes into archive/forgotten/, never over an existing archive; dated `at`. */
export function archiveFile(memoryHome: string, role: string, memory: StoredMemory, at?: Date): string {
  const dir = forgottenArchiveDir(memoryHome, role);
  const base = fileNameForId(memory.id || path.basename(memory.path, '.md')).replace(/\.md$/, '');
  const packed = zlib.gzipSync(fs.readFileSync(memory.path));
  for (let n = 1; ; n++) {
    const target = path.join(dir, `${base}${n === 1 ? '' : `-${n}`}.md.gz`);
    if (createFileExclusiveSync(target, packed)) {
      // The archive's time says when it was forgotten, on Kioku's clock (the Forgotten list shows it).
      if (at) fs.utimesSync(target, at, at);
      return target;
    }
  }
}

/**
 * Forget for a caller that already holds the role's memory lock (a consolidation does, from
 * collect to release). Everyone else calls forgetMemories.
 */
export function forgetMemoriesUnderLock(config: KiokuConfig, role: string, options: { dryRun?: boolean } = {}): ForgetResult {
  const dryRun = options.dryRun ?? false;
  const now = config.clock.now();
  const loaded = loadRoleMemories(config.paths.memoryHome, role);
  const problems = loaded.problems;
  // Hits a recall queued and nobody wrote yet (replay-queue.ts) count: recalled is not "hits ≤ 1".
  const pending = pendingReplays(config.paths.memoryHome, role);
  const memories = pending.size
    ? loaded.memories.map((memory) => {
        const queued = pending.get(memory.path);
        return queued ? { ...memory, ...withReplays(memory, queued.times, queued.at) } : memory;
      })
    : loaded.memories;
  const forgotten: ForgottenMemory[] = [];
  for (const { memory, reason } of selectForgettable(memories, now)) {
    const entry: ForgottenMemory = { id: memory.id, summary: memory.summary, category: memory.category, path: memory.path, reason };
    if (!dryRun) {
      entry.archive = archiveFile(config.paths.memoryHome, role, memory, now);
      fs.unlinkSync(memory.path);
    }
    forgotten.push(entry);
  }
  if (!dryRun) {
    updateMemoryState(config.paths.memoryHome, role, config.clock, (state) => ({ ...state, last_forget: formatLocalIso(now) }));
  }
  return { role, forgotten, dryRun, problems };
}

/** FORGET-1/2: forget under the role's memory lock; `dryRun` lists and changes nothing. */
export function forgetMemories(config: KiokuConfig, role: string, options: { dryRun?: boolean } = {}): ForgetResult {
  if (options.dryRun) return forgetMemoriesUnderLock(config, role, options);
  const lock = acquireLock(memoryLockFile(config.paths.memoryHome, role), { purpose: 'forget', waitMs: 10_000 });
  try {
    // The queued hits into the files first, as a sleep does before it forgets.
    const replays = applyQueuedReplays(config.paths.memoryHome, role, { lock });
    const result = forgetMemoriesUnderLock(config, role, options);
    return replays.status === 'applied' ? { ...result, problems: [...replays.problems, ...result.problems] } : result;
  } finally {
    lock.release();
  }
}
