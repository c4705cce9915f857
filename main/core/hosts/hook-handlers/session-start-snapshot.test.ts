import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookEvent } from '../../../../common/hook-events.js';
import { silentLogger } from '../../platform/config/log.js';
import { loadSnapshot } from '../../engine/context/snapshots.js';
import { readNameCache } from '../../engine/role-call/call-name-cache.js';
import { makeHookHome, sleepWindowFromNow, type HookHome } from '../../../../test/hooks/hook-kit.js';
import type { HookContext } from './hook-handler.js';
import { handleSessionStart } from './session-start-handler.js';

/**
 * The context snapshot (what a compaction re-injects, what tells a resume from a new start) is
 * written after the answer where there is an "after" (the daemon), in place where there is not
 * (the hook's fallback, whose process ends with the answer) — the same file either way.
 */
let home: HookHome;
beforeEach(async () => {
  home = await makeHookHome(sleepWindowFromNow(6, 7));
});
afterEach(() => home.cleanup());

function startEvent(sessionId: string): HookEvent {
  const config = home.config();
  return {
    assistant: 'claude',
    event: 'session-start',
    sessionId,
    transcriptPath: `${home.project}/${sessionId}.jsonl`,
    cwd: home.project,
    source: 'startup',
    receivedAt: config.clock.now().toISOString(),
    payloadKeys: [],
  };
}

/** The snapshot is the load without its opening-only blocks (greeting, consent…): the answer's head. */
function expectSnapshotOf(answer: string, sessionId: string): void {
  const saved = loadSnapshot(home.config().paths, sessionId)?.parts.join('') ?? '';
  expect(saved.length).toBeGreaterThan(100);
  expect(answer.startsWith(saved.trimEnd())).toBe(true);
}

describe('the SessionStart snapshot', () => {
  it('is saved after the answer when the host runs work after it', () => {
    const tasks: Array<() => void> = [];
    const ctx: HookContext = { config: home.config(), logger: silentLogger, host: 'daemon', afterAnswer: (task) => tasks.push(task) };
    const answer = handleSessionStart(ctx, startEvent('later-session')).additionalContext ?? '';
    expect(answer).not.toBe('');
    expect(loadSnapshot(home.config().paths, 'later-session')).toBeUndefined();
    // The call-name cache too: the next prompt's hook reads it, this load does not.
    expect(readNameCache(home.config())).toBeUndefined();
    expect(tasks).toHaveLength(2);
    for (const task of tasks) task();
    expectSnapshotOf(answer, 'later-session');
    expect(readNameCache(home.config())?.roles.length).toBeGreaterThan(0);
  });

  it('is saved in place when there is no after', () => {
    const ctx: HookContext = { config: home.config(), logger: silentLogger, host: 'fallback' };
    const answer = handleSessionStart(ctx, startEvent('inline-session')).additionalContext ?? '';
    expectSnapshotOf(answer, 'inline-session');
  });
});
