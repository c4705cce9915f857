import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HookCall } from '../../common/hook-protocol.js';
import { silentLogger } from '../../main/core/platform/config/log.js';
import { handleQueuedCall } from '../../main/core/hosts/hook-handlers/handle-queued-call.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { SessionTranscript, captureHomeEnv, createCaptureRole, filesWith, inboxTexts } from '../ipc/capture-session-kit.js';

/**
 * Claude Code 2.1 writes a turn's transcript lines after its Stop hook has run (found by the
 * real-client suite, issue 13): the daemon, handling the Stop at once on an idle machine, read a
 * transcript without the turn, took no words — or the previous turn's, when the reply's words
 * were the same ("好的，我記住了。") — and let the turn go. A live Stop now waits for the
 * transcript to hold its reply in a turn no earlier event of the session judged.
 */
let home: TempHome | undefined;
afterEach(() => {
  vi.useRealTimers();
  home?.cleanup();
  home = undefined;
});

let n = 0;
function setUp() {
  home = makeTempHome(captureHomeEnv());
  createCaptureRole(home);
  const ctx = { config: home.config(), logger: silentLogger, host: 'daemon' as const };
  const session = new SessionTranscript(path.join(home.root, 'transcripts'), home.root);
  const queue = (payload: Record<string, unknown>) => {
    const call: HookCall = { eventId: `late-${++n}`, assistant: 'claude', event: 'stop', payload, env: {} };
    return handleQueuedCall(ctx, call);
  };
  return { session, queue };
}

const REPLY = '好的，我記住了。';

/**
 * Handle a Stop while its transcript lags: the daemon's poll is driven by fake timers, and the
 * turn is written between two polls — no wall-clock race, whatever the machine's load.
 */
async function stopBeforeItsTurn(
  queue: (payload: Record<string, unknown>) => Promise<void>,
  payload: Record<string, unknown>,
  writeTurn: () => void,
): Promise<void> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
  const handled = queue(payload);
  await vi.advanceTimersByTimeAsync(250);
  writeTurn();
  await vi.advanceTimersByTimeAsync(250);
  await handled;
  vi.useRealTimers();
}

describe('a live Stop whose transcript is written after it', () => {
  it('waits for its turn: the words are the user’s, not none', async () => {
    const { session, queue } = setUp();
    const turn = { user: '記住：部署前一定要先跑 smoke test', reply: REPLY };
    await stopBeforeItsTurn(queue, session.stopPayload(REPLY), () => session.append(turn));
    expect(filesWith(inboxTexts(home!), 'smoke test')).toHaveLength(1);
  });

  it('is not fooled by an earlier turn that had the same reply', async () => {
    const { session, queue } = setUp();
    session.append({ user: '記住：staging 的憑證放在 vault 的 ops 資料夾', reply: REPLY });
    await queue(session.stopPayload(REPLY));
    expect(filesWith(inboxTexts(home!), 'vault')).toHaveLength(1);
    await stopBeforeItsTurn(queue, session.stopPayload(REPLY), () =>
      session.append({ user: '再記住：憑證輪替要先通知 SRE 值班', reply: REPLY }),
    );
    const inbox = inboxTexts(home!);
    expect(filesWith(inbox, 'SRE 值班')).toHaveLength(1);
    expect(filesWith(inbox, 'vault')).toHaveLength(1);
  });
});
