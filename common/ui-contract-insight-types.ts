/**
 * Data shapes of the "next session" preview and the sleep digest details (common/ui-contract.ts):
 * what SessionStart would inject now, block by block against its budget; and what one
 * consolidation created, merged, superseded and forgot.
 */

/** One block of the load: its size, its items, and the character budget it had. */
export interface SessionPreviewBlock {
  /** soul, agents, peers, relationship, facts, projectMemory, journal, inbox, memory, bonds, dialog, greeting… */
  name: string;
  chars: number;
  shown: number;
  omitted: number;
  /** Said only in a session's first reply (greeting, consent question, sleepy note, brief). */
  opening: boolean;
  /** The setting that limits this block, its value, and what the load left it after shrinking to fit. */
  budget?: { setting: string; configured: number; effective: number };
  /** FACT.md / MEMORY.md replaced by a pointer, or the peers list left out, to fit. */
  replaced?: boolean;
}

export interface SessionPreviewView {
  role: string;
  /** The folder the session starts in. */
  cwd: string;
  /** load: persona and memories; asleep: the sleep-window note only; locked: another live session holds the role (the notice only); off: nothing is injected. */
  state: 'load' | 'asleep' | 'locked' | 'off';
  /** Why nothing is injected: disabled, out-of-scope, no-role-home. */
  offReason?: string;
  /** Exactly what the SessionStart hook prints for the model. */
  text: string;
  parts: string[];
  /** KIOKU_HOOK_OUTPUT_LIMIT and how many parts the load may use; null when no load was assembled. */
  partLimit: number | null;
  maxParts: number;
  blocks: SessionPreviewBlock[];
  /** Items that exist but were left out, per block. */
  omitted: Record<string, number>;
}

/** A memory a consolidation touched, as it is now. */
export interface DigestMemoryRef {
  id: string;
  summary: string;
  /** Still among the role's memories (the timeline can open it). */
  exists: boolean;
}

export interface DigestDetail {
  role: string;
  /** The record the digest points to: a plan, or a forgetting pass. */
  record: string;
  /** manual, sleep, nap, catch-up; undefined in records written before it was kept. */
  reason?: string;
  planner?: string;
  created: DigestMemoryRef[];
  merged: DigestMemoryRef[];
  corrected: DigestMemoryRef[];
  superseded: (DigestMemoryRef & { by: string })[];
  discarded: { source: string; reason: string }[];
  forgotten: { id: string; summary: string; category: string; why: string; archive?: string }[];
}
