import type { InboxEntry, QueuedOutcome } from './demo-capture.js';
import type { HookRun } from './hook-process.js';

/**
 * The steps of `kioku demo`, in order. The same objects feed the narrated text (rendered as each
 * step finishes) and the `--json` document, so the two can never tell different stories. Paths
 * are relative to the demo home unless named `home`.
 */
export type DemoStep =
  | {
      id: 'home';
      home: string;
      roleHome: string;
      memoryHome: string;
      projectDir: string;
      now: string;
      clockFixed: boolean;
      hookClient: string;
    }
  | {
      id: 'role';
      roleId: string;
      name: string;
      emoji: string;
      nature: string;
      vibe: string;
      files: string[];
      memoryDir: string;
      active: boolean;
    }
  | { id: 'seed'; file: string; summary: string }
  | { id: 'session-start'; sessionId: string; transcript: string; hook: HookRun }
  | {
      id: 'turn';
      /** 0-based. */
      index: number;
      user: string;
      assistant: string;
      shows: string;
      prompt: HookRun;
      transcriptLines: number;
      stop: HookRun;
      /** Events waiting in the spool after this Stop, before it was processed. */
      spoolPending: number;
      /** What processing the spool then did with it. */
      captured: QueuedOutcome[];
    }
  | { id: 'session-end'; hook: HookRun; spoolPending: number; lockReleased: boolean; captured: QueuedOutcome[] }
  | { id: 'inbox'; handled: number; failed: number; entries: InboxEntry[] }
  | { id: 'next-session'; sessionId: string; hook: HookRun };

export type DemoStepId = DemoStep['id'];

export interface DemoReport {
  ok: true;
  /** The throw-away home (absolute); gone when `kept` is false. */
  home: string;
  kept: boolean;
  roleId: string;
  steps: DemoStep[];
  /** What the next SessionStart injects: the point of the demo, at the top level for scripts. */
  injection: string;
}
