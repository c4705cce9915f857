import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ownDir } from '../core/platform/fs/own-dir.js';

/**
 * A long replay queue (replay-queue.ts) applied by a process of its own, started detached by the
 * recall that found it long (issue 17, deliver 2: the write-back never on the answer's path).
 * Applied in the recall's own process it was on that path after all: the answer was printed,
 * but the assistant waits for the process to exit, and rewriting some sixty recalls' hits and
 * re-indexing them took 250–500 ms at 100,000 memories, once every sixty recalls or so.
 *
 * The applier is dist/cli-fast/apply-replays.js (apply-replays-child.ts), with this process's
 * environment, so it finds the same memory home. Only a build runs it: from source (tests that
 * import the command) there is no bundle built from the same code, and the recall applies the
 * queue itself as before.
 */
export const APPLIER_FILE = 'apply-replays.js';

/** The applier bundle of the build this code runs from, or undefined when it runs from source. */
export function replayApplierScript(start = ownDir()): string | undefined {
  let dir = start;
  for (;;) {
    if (path.basename(dir) === 'dist') {
      const script = path.join(dir, 'cli-fast', APPLIER_FILE);
      return fs.existsSync(script) ? script : undefined;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Start the applier for a role's queue; false when there is none to start (the caller applies it). */
export function startReplayApplier(role: string, script = replayApplierScript()): boolean {
  if (!script) return false;
  try {
    const child = spawn(process.execPath, [script, role], { detached: true, stdio: 'ignore', env: process.env, windowsHide: true });
    child.on('error', () => undefined); // the next long queue tries again; the queue loses nothing
    child.unref();
    return child.pid !== undefined;
  } catch {
    return false;
  }
}
