import path from 'node:path';
import { formatLocalDate } from '../../platform/config/clock.js';
import { roleMemoryDir } from '../../store/memory/memory-layout.js';

/**
 * Where a consolidation keeps its own records: inside the role's memory folder, so they move with
 * the memories and a crash is replayed wherever they are opened next.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/sleep-paths.ts".
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
