import type { SleepRoleResult } from '../../../../common/hook-protocol.js';

/**
 * What a consolidation reports: CLI.md's `sleep --json` shape
 * (`{ roles: [{ id, ok, processed, created, merged, discarded, forgotten, left, error? }] }`),
 * plus a few fields for people and logs (CLI.md: "add fields freely").
 */
export interface RoleSleepResult extends SleepRoleResult {
  /** The planner that planned this role's batches (`local`, `cli:claude`, …). */
  planner?: string;
  /** Plans applied in this run, replays included. */
  batches: number;
  /** Pending plans from an interrupted run that were finished first. */
  replayed: number;
  /** True when another process held the role's memory lock, so nothing was done. */
  busy?: boolean;
  /** Set when another machine holds this role's sleep lease (synced homes): nothing was done here. */
  elsewhere?: string;
  /** Non-fatal notes: unreadable files left in place, script-guard warnings. */
  warnings: string[];
}

export interface SleepResult {
  roles: RoleSleepResult[];
  /** Set when nothing ran because the role is awake (outside the sleep window, no --force). */
  awake?: boolean;
  /** The sync after the run, on a home synced through git: its outcome and message. */
  sync?: { outcome: string; message: string };
}

/** Progress for a tray or a terminal ("consolidating SILICA01, 8 left"). */
export type SleepProgress =
  /** The role's memory lock is held (run-in-worker.ts frees it should the worker be terminated). */
  | { type: 'locked'; role: string; lockFile: string; since?: number }
  | { type: 'role-start'; role: string; inbox: number; planner: string }
  | { type: 'replayed'; role: string; planId: string }
  | { type: 'batch-start'; role: string; size: number; left: number }
  | { type: 'batch-failed'; role: string; size: number; attempt: number; error: string }
  | { type: 'batch-applied'; role: string; planId: string; processed: number; left: number }
  | { type: 'role-done'; role: string; result: RoleSleepResult };

export function emptyRoleResult(role: string): RoleSleepResult {
  return {
    id: role,
    ok: true,
    processed: 0,
    created: 0,
    merged: 0,
    discarded: 0,
    forgotten: 0,
    left: 0,
    batches: 0,
    replayed: 0,
    warnings: [],
  };
}
