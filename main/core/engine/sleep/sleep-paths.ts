import path from 'node:path';
import { formatLocalDate } from '../../platform/config/clock.js';
import { roleMemoryDir } from '../../store/memory/memory-layout.js';

/**
 * Where a consolidation keeps its own records, inside the role's memory folder so that they move
 * with the memories (export, git sync) and a crash on one machine is replayed wherever the
 * memories are opened next:
 *
 *     <memory home>/<ID>/.sleep/pending/<planId>.json   a plan recorded, not yet fully applied
 *     <memory home>/<ID>/.sleep/applied/<planId>.json   the last APPLIED_KEPT applied plans
 *     <memory home>/<ID>/.sleep/forgetting/<id>.json    what a run forgot (the last APPLIED_KEPT)
 *     <memory home>/<ID>/archive/raw/<yyyy-mm-dd>/      the raw inbox items, gzipped (MEM-1)
 *
 * `.sleep` starts with a dot, so memory scanners (listMemoryFiles, the index) never read it.
 */
export const APPLIED_KEPT = 50;

export function sleepDir(memoryHome: string, role: string): string {
  return path.join(roleMemoryDir(memoryHome, role), '.sleep');
}

export function pendingDir(memoryHome: string, role: string): string {
  return path.join(sleepDir(memoryHome, role), 'pending');
}

export function appliedDir(memoryHome: string, role: string): string {
  return path.join(sleepDir(memoryHome, role), 'applied');
}

export function forgettingDir(memoryHome: string, role: string): string {
  return path.join(sleepDir(memoryHome, role), 'forgetting');
}

export function planFileName(planId: string): string {
  return `${planId.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
}

export function rawArchiveDir(memoryHome: string, role: string, at: Date): string {
  return path.join(roleMemoryDir(memoryHome, role), 'archive', 'raw', formatLocalDate(at));
}
