import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookCall } from '../../common/hook-protocol.js';
import { silentLogger } from '../../main/core/platform/config/log.js';
import { handleQueuedCall } from '../../main/core/hosts/hook-handlers/handle-queued-call.js';
import { capturedTurnFilePath } from '../../main/core/store/sessions/captured-turn-file.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { SessionTranscript, captureHomeEnv, createCaptureRole, filesWith, inboxTexts } from '../ipc/capture-session-kit.js';

/**
 * CAP-5 next to CAP-1: a PreCompact that fires right after the Stop of the same turn must not
 * put that turn in the inbox a second time (CAP-5: the PreCompact keeps
 * "尚未寫入的內容" — a turn the Stop wrote is written), nor a turn the Stop judged and let go
 * (issue 13: no new dialogue since the last capture writes nothing). It still keeps what no Stop
 * saw: a newer turn, short or not, and the same words said again later.
 */
let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

let n = 0;
function setUp(): {
  session: SessionTranscript;
  queue: (event: 'stop' | 'pre-compact', payload: Record<string, unknown>) => Promise<void>;
} {
  home = makeTempHome(captureHomeEnv());
  createCaptureRole(home);
  const ctx = { config: home.config(), logger: silentLogger, host: 'daemon' as const };
  const session = new SessionTranscript(path.join(home.root, 'transcripts'), home.root);
  const queue = (event: 'stop' | 'pre-compact', payload: Record<string, unknown>) => {
    const call: HookCall = { eventId: `ev-${++n}`, assistant: 'claude', event, payload, env: {} };
    return handleQueuedCall(ctx, call);
  };
  return { session, queue };
}

const DECISION = { user: '記住：發版前一定要先在 staging 跑完 smoke test。', reply: '好，之後發版前我都會先在 staging 跑 smoke test。' };

describe('PreCompact after a Stop of the same turn', () => {
  it('writes nothing more: the turn is in the inbox once', async () => {
    const { session, queue } = setUp();
    session.append(DECISION);
    await queue('stop', session.stopPayload(DECISION.reply));
    expect(inboxTexts(home!).size).toBe(1);
    await queue('pre-compact', session.preCompactPayload());
    const inbox = inboxTexts(home!);
    expect(inbox.size).toBe(1);
    expect(filesWith(inbox, 'staging')).toHaveLength(1);
  });

  it('still keeps a newer turn that no Stop kept (compaction in the middle of a long turn)', async () => {
    const { session, queue } = setUp();
    session.append(DECISION);
    await queue('stop', session.stopPayload(DECISION.reply));
    const long = { user: '記住：資料庫 migration 一律要能回滾。', reply: '了解，我先檢查現有的 migration。' };
    session.append(long);
    await queue('pre-compact', session.preCompactPayload());
    const inbox = inboxTexts(home!);
    expect(inbox.size).toBe(2);
    expect(filesWith(inbox, 'migration')).toHaveLength(1);
    // That turn's own Stop, when it ends: its words are in the inbox already.
    await queue('stop', session.stopPayload(long.reply));
    expect(filesWith(inboxTexts(home!), 'migration')).toHaveLength(1);
  });

  it('writes nothing for a turn its Stop let go as too short: no new dialogue since that capture (issue 13)', async () => {
    const { session, queue } = setUp();
    const short = { user: '好，就這樣。', reply: '收到。' };
    session.append(short);
    await queue('stop', session.stopPayload(short.reply));
    expect(inboxTexts(home!).size).toBe(0);
    await queue('pre-compact', session.preCompactPayload());
    expect(inboxTexts(home!).size).toBe(0);
  });

  it('still keeps a short turn no Stop saw (PreCompact skips the length test)', async () => {
    const { session, queue } = setUp();
    session.append(DECISION);
    await queue('stop', session.stopPayload(DECISION.reply));
    session.append({ user: '好，就這樣。', reply: '收到。' });
    await queue('pre-compact', session.preCompactPayload());
    expect(inboxTexts(home!).size).toBe(2);
  });

  it('tells the same words said twice apart by when they were said', async () => {
    const { session, queue } = setUp();
    const again = { user: '繼續，記住要保留舊的設定檔。', reply: '好，我保留舊的設定檔並繼續。' };
    session.append(again);
    await queue('stop', session.stopPayload(again.reply));
    session.append(again);
    await queue('pre-compact', session.preCompactPayload());
    expect(inboxTexts(home!).size).toBe(2);
  });

  it('records the kept turn per session in .sessions/, and a replayed Stop keeps the inbox as it was', async () => {
    const { session, queue } = setUp();
    session.append(DECISION);
    const payload = session.stopPayload(DECISION.reply);
    await queue('stop', payload);
    const file = capturedTurnFilePath(home!.config(), session.sessionId);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{32}\n$/);
    // The same event again (the spool delivers at least once): nothing new.
    const ctx = { config: home!.config(), logger: silentLogger, host: 'daemon' as const };
    await handleQueuedCall(ctx, { eventId: `ev-${n}`, assistant: 'claude', event: 'stop', payload, env: {} });
    await queue('pre-compact', session.preCompactPayload());
    expect(inboxTexts(home!).size).toBe(1);
  });
});
