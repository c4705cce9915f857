import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SessionStartSource } from '../../../../common/hook-events.js';
import type { KiokuPaths } from '../../platform/config/paths.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';

/**
 * Session snapshots (DSH-4, CTX-10): what a session was given is frozen at its first load, so
 * the prompt prefix stays stable and a compaction restores exactly what the role started with.
 * Design notes: docs/design-notes.md, "main/core/engine/context/snapshots.ts".
 */
export interface ContextSnapshot {
  version: 1;
  sessionId: string;
  savedAt: string;
  /** The role the parts are of (a call by name may change the role later, CALL-3). */
  roleId?: string;
  parts: string[];
}

const MAX_NAME = 100;

/**
 * A session id as a file name: anything outside `[A-Za-z0-9._-]` becomes `_`, leading dots go,
 * and a changed or over-long id gets a short hash so two ids never share a file.
 */
export function snapshotFileName(sessionId: string): string {
  const safe = sessionId
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, MAX_NAME);
  if (safe && safe === sessionId) return `${safe}.json`;
  const hash = createHash('sha256').update(sessionId).digest('hex').slice(0, 12);
  return `${safe || 'session'}-${hash}.json`;
}

export function snapshotFile(paths: Pick<KiokuPaths, 'snapshotsDir'>, sessionId: string): string {
  return path.join(paths.snapshotsDir, snapshotFileName(sessionId));
}

/** Write (atomically, replacing any earlier one) and return the file written. */
export function saveSnapshot(
  paths: Pick<KiokuPaths, 'snapshotsDir'>,
  sessionId: string,
  parts: readonly string[],
  meta: { roleId?: string; savedAt?: string } = {},
): string {
  const snapshot: ContextSnapshot = {
    version: 1,
    sessionId,
    savedAt: meta.savedAt ?? new Date().toISOString(),
    ...(meta.roleId ? { roleId: meta.roleId } : {}),
    parts: [...parts],
  };
  const file = snapshotFile(paths, sessionId);
  // Without fsync (X-PERF): a snapshot lost in a power cut only means the next compaction builds
  // a fresh load instead of re-injecting the frozen one.
  writeFileAtomicSync(file, `${JSON.stringify(snapshot)}\n`, { durable: false });
  return file;
}

/** The session's snapshot; undefined when there is none or it is not one (never a crash). */
export function loadSnapshot(paths: Pick<KiokuPaths, 'snapshotsDir'>, sessionId: string): ContextSnapshot | undefined {
  const file = snapshotFile(paths, sessionId);
  // A new session has none: asked first, because a failed read builds an error with its stack
  // (0.2 ms of every fresh SessionStart in the daemon's profile).
  if (!fs.existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== 'object') return undefined;
  const value = raw as Partial<ContextSnapshot>;
  if (!Array.isArray(value.parts) || !value.parts.every((part) => typeof part === 'string')) return undefined;
  return {
    version: 1,
    sessionId: typeof value.sessionId === 'string' ? value.sessionId : sessionId,
    savedAt: typeof value.savedAt === 'string' ? value.savedAt : '',
    ...(typeof value.roleId === 'string' ? { roleId: value.roleId } : {}),
    parts: value.parts,
  };
}

/** Snapshots of sessions not started for `maxAgeDays` days; returns how many were removed. */
export function removeStaleSnapshots(paths: Pick<KiokuPaths, 'snapshotsDir'>, now: Date, maxAgeDays = 30): number {
  let names: string[];
  try {
    names = fs.readdirSync(paths.snapshotsDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const file = path.join(paths.snapshotsDir, name);
    try {
      if (now.getTime() - fs.statSync(file).mtimeMs < maxAgeDays * 86_400_000) continue;
      fs.unlinkSync(file);
      removed++;
    } catch {
      /* gone already, or not ours to remove */
    }
  }
  return removed;
}

/**
 * What a SessionStart does with its load (CTX-10):
 * - `build-and-save`: build a fresh load, inject it, freeze it (startup, clear, an unknown source,
 *   or a resume/compact with nothing frozen to go back to);
 * - `remind`: inject one line only — Claude Code replays the earlier injection on resume (and a
 *   fork carries its parent's history), so the whole load again would only double it;
 * - `reinject-snapshot`: after a compaction the injected text is gone from the window: inject
 *   the frozen snapshot as it was.
 * `replaysOnResume: false` is for an assistant that does not replay hook output on resume: it
 * gets the snapshot back instead of a reminder.
 */
export type SnapshotAction = 'build-and-save' | 'remind' | 'reinject-snapshot';

/**
 * Whether snapshotAction's answer for this source depends on a snapshot existing: a resume or a
 * compaction only. Every other start is answered without reading one (a SessionStart of a new
 * session read the file, or failed to, for nothing).
 */
export function snapshotMatters(source: SessionStartSource | undefined): boolean {
  return source === 'resume' || source === 'compact';
}

export function snapshotAction(
  source: SessionStartSource | undefined,
  options: { snapshotExists?: boolean; replaysOnResume?: boolean } = {},
): SnapshotAction {
  const exists = options.snapshotExists ?? true;
  switch (source) {
    case 'fork':
      // A fork is a new session id over the parent's replayed history: no snapshot of its own
      // yet, but the parent's load is already in the conversation.
      return 'remind';
    case 'resume':
      if (!exists) return 'build-and-save';
      return options.replaysOnResume === false ? 'reinject-snapshot' : 'remind';
    case 'compact':
      return exists ? 'reinject-snapshot' : 'build-and-save';
    default:
      return 'build-and-save';
  }
}
