import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fsyncDir, writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { APPLIED_KEPT, appliedDir, pendingDir, planFileName, sleepDir } from './sleep-paths.js';
import { sleepPlanSchema, type SleepPlan } from './sleep-plan.js';

/**
 * The pending record of a plan: written before any file is touched, so a crashed consolidation can
 * be replayed idempotently.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/pending-plans.ts".
 */
export const PENDING_VERSION = 1;

export const pendingPlanSchema = z.object({
  v: z.literal(PENDING_VERSION),
  plan: sleepPlanSchema,
  /** When the plan was recorded (ISO 8601 with offset): created memories' times, the archive folder. */
  at: z.string(),
  atMs: z.number(),
  /**
   * The batch's inbox files, by inbox id: the path relative to the role's memory folder (so a
   * replay on another machine of a synced memory finds them), the item's memory_type, and its
   * `created` as written (a created memory keeps its earliest source's; absent in plans recorded
   * before issue 11, whose created memories then take the plan's time).
   */
  sources: z.record(
    z.string(),
    z.object({
      file: z.string(),
      memory_type: z.string(),
      created: z.string().optional(),
      /** The item's `project` and `project_specific` (issue 12, projects/memory-project.ts); absent for global items and older plans. */
      project: z.union([z.string(), z.array(z.string())]).optional(),
      project_specific: z.boolean().optional(),
    }),
  ),
  /** SHA-256 of DIGESTS.md right before the digest was appended; '' when there was no file. */
  digestBefore: z.string().optional(),
  warnings: z.array(z.string()).default([]),
  /** Why the run happened (manual, sleep, nap, catch-up); absent in older records. */
  reason: z.string().optional(),
  /** The ids the created memories got, in the order of plan.create; written at the end (the sleep history lists them). */
  createdIds: z.array(z.string()).optional(),
});

export type PendingPlan = z.infer<typeof pendingPlanSchema>;

export function pendingFile(memoryHome: string, role: string, planId: string): string {
  return path.join(pendingDir(memoryHome, role), planFileName(planId));
}

export function writePending(memoryHome: string, role: string, pending: PendingPlan): string {
  const file = pendingFile(memoryHome, role, pending.plan.id);
  writeFileAtomicSync(file, `${JSON.stringify(pending, null, 2)}\n`);
  return file;
}

export function newPendingPlan(
  plan: SleepPlan,
  at: Date,
  iso: string,
  sources: PendingPlan['sources'],
  warnings: string[],
  reason?: string,
): PendingPlan {
  return { v: PENDING_VERSION, plan, at: iso, atMs: at.getTime(), sources, warnings, ...(reason ? { reason } : {}) };
}

export function fileHash(file: string): string {
  try {
    return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

export interface PendingListing {
  plans: PendingPlan[];
  /** Pending files that could not be read; moved to `.sleep/unreadable/` and named here. */
  problems: string[];
}

/**
 * The role's pending plans, oldest first (plan ids start with their time). A file that is not a
 * pending plan (hand-edited, from a newer Kioku) is moved aside, never deleted: its inbox items
 * are still in the inbox or already in archive/raw, so nothing is lost by not replaying it.
 */
export function listPending(memoryHome: string, role: string): PendingListing {
  const dir = pendingDir(memoryHome, role);
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
      .sort();
  } catch {
    return { plans: [], problems: [] };
  }
  const listing: PendingListing = { plans: [], problems: [] };
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      listing.plans.push(pendingPlanSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8'))));
    } catch (error) {
      const aside = path.join(sleepDir(memoryHome, role), 'unreadable', name);
      fs.mkdirSync(path.dirname(aside), { recursive: true });
      fs.renameSync(file, aside);
      listing.problems.push(
        `pending plan ${file} could not be read (${(error as Error).message.split('\n')[0]}); moved to ${aside}, its inbox items stay in the inbox`,
      );
    }
  }
  return listing;
}

/** The last step: pending → applied (kept for people and tests), the oldest beyond APPLIED_KEPT removed. */
export function finishPending(memoryHome: string, role: string, planId: string): void {
  const from = pendingFile(memoryHome, role, planId);
  const toDir = appliedDir(memoryHome, role);
  fs.mkdirSync(toDir, { recursive: true, mode: 0o700 });
  fs.renameSync(from, path.join(toDir, planFileName(planId)));
  fsyncDir(toDir);
  fsyncDir(path.dirname(from));
  const applied = fs
    .readdirSync(toDir)
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .sort();
  for (const name of applied.slice(0, Math.max(0, applied.length - APPLIED_KEPT))) fs.rmSync(path.join(toDir, name), { force: true });
}
