import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SpoolRecord } from '../../common/hook-protocol.js';
import { capturedIdCandidates } from '../../main/core/engine/capture/capture-writer.js';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { SPOOL_FAILED, SPOOL_PROCESSING } from '../../main/core/platform/ipc/spool-writer.js';
import { killAndWait, waitDrained, waitReady, type ChildRun } from '../ipc/daemon-kit.js';
import { ACTIVE, CALLEE, NOW, claudePayload, makeHookHome, runHook, startHookDaemon, startReadyDaemon, type HookHome } from './hook-kit.js';

/**
 * HOOK-5 / APP-3 end to end with the real hook client and the real daemon: what the hook could
 * not hand over is spooled and captured once the app runs — exactly once — and SessionEnd frees
 * the role at once even with no app (LOCK-4): the hook itself releases the lock before it exits,
 * with the daemon gone or hung. That it does so inside Claude Code's ~1.5 s for that hook is a
 * speed target, measured by `npm run bench -- hooks` (session-end, daemon down and hung).
 */
let home: HookHome | undefined;
const daemons: ChildRun[] = [];
afterEach(async () => {
  for (const daemon of daemons.splice(0)) {
    try {
      process.kill(daemon.pid, 'SIGCONT');
    } catch {
      /* gone */
    }
    await killAndWait(daemon, 'SIGTERM');
  }
  home?.cleanup();
  home = undefined;
});

const jsonFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.json')) : []);
/** A Stop sent while the daemon is stopped (SIGSTOP): the hook waits, gives up and spools; then the daemon resumes. */
async function stopWhileHung(h: HookHome, daemon: ChildRun, session: string, reply: string) {
  process.kill(daemon.pid, 'SIGSTOP');
  try {
    return await runHook('stop', claudePayload(h, 'stop', session, { last_assistant_message: reply }), h.env);
  } finally {
    process.kill(daemon.pid, 'SIGCONT');
  }
}

const capturedInbox = (h: HookHome) =>
  loadRoleMemories(h.memoryHome, ACTIVE.id)
    .memories.filter((memory) => memory.category === 'inbox' && String(memory.extra.source ?? '').startsWith('capture:'))
    .map((memory) => ({ id: memory.id, summary: memory.summary, body: memory.body, event: memory.extra.capture_event }))
    .sort((a, b) => a.id.localeCompare(b.id));

describe('Stop with the daemon down: spooled, then captured exactly once', () => {
  it('two turns with an explicit cue reach the inbox once each, across a restart', async () => {
    const h = (home = await makeHookHome());
    const turns: Array<[string, string, string]> = [
      ['sess-a', '記住：部署之前一定要先跑 smoke test', '好，我記住了：部署前先跑 smoke test。'],
      ['sess-b', '請記住，以後 commit 訊息都用英文寫', '了解，以後 commit 訊息一律用英文。'],
    ];
    for (const [session, user, reply] of turns) {
      h.transcript(session, [
        ['先幫我看一下 CI 為什麼紅了', 'CI 的 lint 步驟失敗，是少了一個分號。'],
        [user, reply],
      ]);
      const run = await runHook('stop', claudePayload(h, 'stop', session, { last_assistant_message: reply }), h.env);
      expect(run).toMatchObject({ code: 0, signal: null, stdout: '', stderr: '' });
    }
    const { spoolDir } = h.config().paths;
    const spooled = jsonFiles(spoolDir).map((name) => JSON.parse(fs.readFileSync(path.join(spoolDir, name), 'utf8')) as SpoolRecord);
    expect(spooled.map((record) => [record.event, record.spooledBy])).toEqual([
      ['stop', 'hook'],
      ['stop', 'hook'],
    ]);
    expect(capturedInbox(h)).toEqual([]); // nothing is condensed without the app

    // The daemon ingests the spool before it says ready.
    let daemon = await startReadyDaemon(h);
    daemons.push(daemon);
    const captured = capturedInbox(h);
    // Each event's memories carry ids derived from its eventId and say which event and index made
    // them (capture-writer.ts): all of them are accounted for, index 0 of each event included —
    // nothing written twice, nothing from elsewhere.
    const expected = new Map<string, string[]>();
    for (const record of spooled)
      for (let index = 0; index < 10; index++) expected.set(`${record.eventId}#${index}`, capturedIdCandidates(record.eventId, index, NOW));
    for (const record of spooled) expect(captured.map((memory) => memory.event)).toContain(`${record.eventId}#0`);
    expect(captured.length).toBeGreaterThanOrEqual(2);
    for (const memory of captured) expect(expected.get(String(memory.event)), memory.id).toContain(memory.id);
    expect(new Set(captured.map((memory) => memory.summary)).size).toBe(captured.length);
    const text = captured.map((memory) => `${memory.summary}\n${memory.body}`).join('\n');
    expect(text).toContain('smoke test');
    expect(text).toContain('commit');
    expect(jsonFiles(spoolDir)).toEqual([]);
    expect(jsonFiles(path.join(spoolDir, SPOOL_PROCESSING))).toEqual([]);
    expect(jsonFiles(path.join(spoolDir, SPOOL_FAILED))).toEqual([]);

    // A restart finds nothing left to do.
    await killAndWait(daemon, 'SIGTERM');
    daemon = await startReadyDaemon(h);
    daemons.push(daemon);
    expect(capturedInbox(h)).toEqual(captured);
  });
});

describe('Stop sent to a hung daemon', () => {
  it('is spooled by the hook after its wait and captured once when the daemon resumes, though both may deliver it', async () => {
    const h = (home = await makeHookHome());
    const daemon = await startReadyDaemon(h);
    daemons.push(daemon);
    const { spoolDir } = h.config().paths;
    h.transcript('sess-hung', [['記住：週五下午不要部署', '好，週五下午不部署。']]);
    const run = await stopWhileHung(h, daemon, 'sess-hung', '好，週五下午不部署。');
    expect(run).toMatchObject({ code: 0, signal: null, stdout: '', stderr: '' });
    await waitDrained(h, daemon);
    const captured = capturedInbox(h);
    expect(captured).toHaveLength(1);
    // The relative day is written out next to the words (issue 19): 週五（2026-03-13）下午不要部署.
    expect(captured[0]!.summary).toMatch(/週五（2026-03-13）下午不要部署/);
    expect(jsonFiles(spoolDir)).toEqual([]);
    expect(jsonFiles(path.join(spoolDir, SPOOL_FAILED))).toEqual([]);
  });

  it('is captured once though the daemon’s clock and the hook’s differ: both deliveries carry the hook’s time', async () => {
    // The daemon's clock seven minutes ahead of the hook's, as a busy machine's two deliveries of
    // one Stop used to be dated (its queue on receipt, the hook's spool after its wait): two ids,
    // the turn captured twice (seen in the quality bench).
    const h = (home = await makeHookHome());
    const daemon = await startReadyDaemon(h, { KIOKU_NOW: new Date(NOW.getTime() + 7 * 60_000).toISOString() });
    daemons.push(daemon);
    h.transcript('sess-skew', [['記住：結帳頁有問題就找小美', '好，結帳頁有問題找小美。']]);
    const run = await stopWhileHung(h, daemon, 'sess-skew', '好，結帳頁有問題找小美。');
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await waitDrained(h, daemon);
    const captured = capturedInbox(h);
    expect(captured.map((m) => m.summary)).toHaveLength(1);
    // Dated by the hook (its id starts with the turn's local time in Taipei, where the hook kit
    // runs): when the turn ended, not when the daemon got round to it.
    expect(captured[0]!.id.startsWith('20260310-140000-')).toBe(true);
  });
});

describe('SessionEnd with no daemon releases the role lock before the hook exits', () => {
  const lockFile = (h: HookHome, roleId: string) => path.join(h.roleHome, '.locks', `${roleId}.lock`);

  async function loadThenEnd(h: HookHome, session: string, options: { call?: boolean } = {}): Promise<void> {
    h.transcript(session);
    const start = await runHook('session-start', claudePayload(h, 'session-start', session), h.env);
    expect(start.stdout).toContain(ACTIVE.name);
    let held = ACTIVE.id;
    if (options.call) {
      const call = await runHook(
        'user-prompt-submit',
        claudePayload(h, 'user-prompt-submit', session, { prompt: `@${CALLEE.id} 接手一下` }),
        h.env,
      );
      expect(call.stdout).toContain(CALLEE.name);
      held = CALLEE.id;
      expect(fs.existsSync(path.join(h.roleHome, '.sessions', `${session}.role`))).toBe(true);
    }
    expect(JSON.parse(fs.readFileSync(lockFile(h, held), 'utf8'))).toMatchObject({ role: held, sessionKey: session });

    const end = await runHook('session-end', claudePayload(h, 'session-end', session), h.env);
    expect(end).toMatchObject({ code: 0, signal: null, stdout: '', stderr: '' });
    expect(fs.existsSync(lockFile(h, ACTIVE.id))).toBe(false);
    expect(fs.existsSync(lockFile(h, CALLEE.id))).toBe(false);
    // The session's role record stays for a resume (LOCK-4, issue 13): only the locks go.
    expect(fs.existsSync(path.join(h.roleHome, '.sessions', `${session}.role`))).toBe(options.call === true);
    // …and the next session can take the role at once.
    h.transcript(`${session}-next`);
    const next = await runHook('session-start', claudePayload(h, 'session-start', `${session}-next`), h.env);
    expect(next.stdout).toContain('黑咖啡');
  }

  it('no daemon at all', async () => {
    const h = (home = await makeHookHome());
    await loadThenEnd(h, 'sess-end');
  });

  it('after a call by name (the callee holds the lock)', async () => {
    const h = (home = await makeHookHome());
    await loadThenEnd(h, 'sess-end-call', { call: true });
  });

  it('daemon hung (SIGSTOP)', async () => {
    const h = (home = await makeHookHome());
    const daemon = startHookDaemon(h);
    daemons.push(daemon);
    await waitReady(h, daemon);
    process.kill(daemon.pid, 'SIGSTOP');
    try {
      // Every hook here gave up on the stopped daemon and did the work itself, SessionEnd included:
      // the lock was gone while the daemon could not have touched it.
      await loadThenEnd(h, 'sess-end-hung');
      expect(fs.readFileSync(path.join(h.config().paths.logsDir, 'hooks.log'), 'utf8')).toContain(
        'session-end: daemon did not answer (timeout)',
      );
    } finally {
      process.kill(daemon.pid, 'SIGCONT');
    }
  });
});
