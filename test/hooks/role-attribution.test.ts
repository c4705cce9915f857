import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookEventName } from '../../common/hook-events.js';
import type { HookCall } from '../../common/hook-protocol.js';
import { silentLogger } from '../../main/core/platform/config/log.js';
import { resumeReminder } from '../../main/core/engine/context/special-contexts.js';
import { answerHookCall } from '../../main/core/hosts/hook-handlers/answer-hook-call.js';
import { handleQueuedCall } from '../../main/core/hosts/hook-handlers/handle-queued-call.js';
import { claimRole } from '../../main/core/store/sessions/role-locks.js';
import { roleHistoryFilePath } from '../../main/core/store/sessions/role-history.js';
import { SessionTranscript, filesWith, inboxTexts, type TurnText } from '../ipc/capture-session-kit.js';
import { ACTIVE, CALLEE, makeHookHome, setFresh, sleepWindowFromNow, type HookHome } from './hook-kit.js';

/**
 * Who a session is across a call by name, a handback, SessionEnd and a resume (issue 13 Deliver 2,
 * issue 19 Deliver 1). Runs the hook handlers in-process, as the daemon does: SessionStart and
 * UserPromptSubmit through answerHookCall, Stop and SessionEnd through the capture queue.
 */
let home: HookHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

let n = 0;

interface Session {
  h: HookHome;
  t: SessionTranscript;
  /** SessionStart / UserPromptSubmit: what the assistant is given. */
  answer(event: HookEventName, extra?: Record<string, unknown>): string;
  /** Stop / PreCompact / SessionEnd through the capture queue, as the daemon handles them. */
  queue(event: HookEventName, extra?: Record<string, unknown>): Promise<void>;
}

/** Attribution is the subject here, not the sleep window: it is kept six hours away from NOW. */
const AWAKE = sleepWindowFromNow(6, 7);

async function session(): Promise<Session> {
  const h = (home = await makeHookHome({ KIOKU_NO_SCHEDULE: '1', ...AWAKE }));
  const t = new SessionTranscript(h.transcriptsDir, h.project);
  const ctx = () => ({ config: h.config(), logger: silentLogger, host: 'daemon' as const });
  const payload = (event: HookEventName, extra: Record<string, unknown>) => ({
    session_id: t.sessionId,
    transcript_path: t.file,
    cwd: h.project,
    hook_event_name: event,
    ...extra,
  });
  return {
    h,
    t,
    answer: (event, extra = {}) =>
      answerHookCall(ctx(), { eventId: `ev-${++n}`, assistant: 'claude', event, payload: payload(event, extra) }),
    queue: (event, extra = {}) => {
      const call: HookCall = { eventId: `ev-${++n}`, assistant: 'claude', event, payload: payload(event, extra), env: {} };
      return handleQueuedCall(ctx(), call);
    },
  };
}

/** A turn the local condenser keeps ("記住：" is a memory cue), with a marker to find it by. */
const turn = (marker: string, reply: string): TurnText => ({ user: `記住：${marker} 的部署改用藍綠切換，舊版保留一天。`, reply });
const stop = (reply: string) => ({ stop_hook_active: false, last_assistant_message: reply });

/** The handoff block ("最近的對話") of a load, up to the next heading. */
function dialogOf(load: string): string {
  const start = load.indexOf('## 最近的對話');
  expect(start, load.slice(0, 400)).toBeGreaterThanOrEqual(0);
  const end = load.indexOf('\n## ', start + 3);
  return load.slice(start, end < 0 ? undefined : end);
}

/** The labelled lines of a dialog block that hold `text`. */
const linesWith = (block: string, text: string) => block.split('\n').filter((line) => line.includes(text));

const A1 = '我是西莉卡：A1 的快取設定我改好了。';
const B1 = '我是結衣：B1 的藍綠切換我幫你排好了。';
const A2 = '我是西莉卡：A2 回來接手，繼續看快取。';

describe('attribution by turn (issue 19)', () => {
  it('labels each line of the handoff with the role that said it, on a call and on the handback', async () => {
    const s = await session();
    s.answer('session-start', { source: 'startup' });
    s.t.append(turn('M-A1', A1));
    s.t.append({ user: `${CALLEE.name}，幫我排部署`, reply: '' });
    const toCallee = s.answer('user-prompt-submit', { prompt: `${CALLEE.name}，幫我排部署` });
    expect(toCallee).toContain(CALLEE.name);
    // 結衣's load: 西莉卡's reply is 西莉卡's, not 結衣's own.
    const calleeDialog = dialogOf(toCallee);
    expect(linesWith(calleeDialog, A1)).toEqual([`${ACTIVE.name}: ${A1}`]);

    s.t.append(turn('M-B1', B1));
    s.t.append({ user: `${ACTIVE.name}，換你回來`, reply: '' });
    const back = s.answer('user-prompt-submit', { prompt: `${ACTIVE.name}，換你回來` });
    const activeDialog = dialogOf(back);
    expect(linesWith(activeDialog, A1)).toEqual([`${ACTIVE.name}: ${A1}`]);
    expect(linesWith(activeDialog, B1)).toEqual([`${CALLEE.name}: ${B1}`]);
    expect(activeDialog).toContain(`不是${ACTIVE.name}說的`);
  });

  it("leaves out another role's rounds from the previous session's transcript (PRIV-4), keeps its own", async () => {
    const s = await session();
    s.answer('session-start', { source: 'startup' });
    s.t.append(turn('M-A1', A1));
    s.answer('user-prompt-submit', { prompt: `${CALLEE.name}，幫我排部署` });
    s.t.append(turn('M-B1', B1));
    await s.queue('session-end', { reason: 'prompt_input_exit' });
    setFresh(s.t.file);

    // The next session of the default role starts with an empty transcript: the handoff comes
    // from the previous one, where 結衣 answered last.
    const next = new SessionTranscript(s.h.transcriptsDir, s.h.project);
    fs.writeFileSync(next.file, '');
    const load = answerHookCall(
      { config: s.h.config(), logger: silentLogger, host: 'daemon' },
      {
        assistant: 'claude',
        event: 'session-start',
        payload: {
          session_id: next.sessionId,
          transcript_path: next.file,
          cwd: s.h.project,
          hook_event_name: 'SessionStart',
          source: 'startup',
        },
      },
    );
    const dialog = dialogOf(load);
    expect(dialog).toContain(`${ACTIVE.name}: ${A1}`);
    expect(dialog).not.toContain(B1);
    expect(dialog).not.toContain(`${CALLEE.name}，幫我排部署`);
  });

  it('files late-ingested turns under the role that answered each (CAP-2)', async () => {
    const s = await session();
    s.answer('session-start', { source: 'startup' });
    s.t.append(turn('M-A1', A1));
    s.answer('user-prompt-submit', { prompt: `${CALLEE.name}，幫我排部署` });
    s.t.append(turn('M-B1', B1));
    s.answer('user-prompt-submit', { prompt: `${ACTIVE.name}，換你回來` });
    s.t.append(turn('M-A2', A2));
    // The daemon was busy: every Stop is handled after the handback.
    await s.queue('stop', stop(A1));
    await s.queue('stop', stop(B1));
    await s.queue('stop', stop(A2));

    const active = inboxTexts(s.h, ACTIVE.id);
    const callee = inboxTexts(s.h, CALLEE.id);
    expect(filesWith(active, 'M-A1')).toHaveLength(1);
    expect(filesWith(active, 'M-A2')).toHaveLength(1);
    expect(filesWith(callee, 'M-B1')).toHaveLength(1);
    expect(filesWith(active, 'M-B1')).toEqual([]);
    expect(filesWith(callee, 'M-A1')).toEqual([]);
  });

  it('keeps attributing across SessionEnd and a resume: the handback block and the late captures', async () => {
    const s = await session();
    s.answer('session-start', { source: 'startup' });
    s.t.append(turn('M-A1', A1));
    s.answer('user-prompt-submit', { prompt: `${CALLEE.name}，幫我排部署` });
    s.t.append(turn('M-B1', B1));
    await s.queue('session-end', { reason: 'prompt_input_exit' });
    expect(s.answer('session-start', { source: 'resume' })).toContain(resumeReminder('zh-TW', CALLEE.name));
    const B2 = '我是結衣：B2 接續之後，部署順序我也確認了。';
    s.t.append(turn('M-B2', B2));
    s.t.append({ user: `${ACTIVE.name}，換你回來`, reply: '' });
    const back = dialogOf(s.answer('user-prompt-submit', { prompt: `${ACTIVE.name}，換你回來` }));
    expect(linesWith(back, A1)).toEqual([`${ACTIVE.name}: ${A1}`]);
    expect(linesWith(back, B1)).toEqual([`${CALLEE.name}: ${B1}`]);
    expect(linesWith(back, B2)).toEqual([`${CALLEE.name}: ${B2}`]);
    s.t.append(turn('M-A2', A2));

    for (const reply of [A1, B1, B2, A2]) await s.queue('stop', stop(reply));
    const active = inboxTexts(s.h, ACTIVE.id);
    const callee = inboxTexts(s.h, CALLEE.id);
    expect(['M-A1', 'M-A2'].map((m) => filesWith(active, m).length)).toEqual([1, 1]);
    expect(['M-B1', 'M-B2'].map((m) => filesWith(callee, m).length)).toEqual([1, 1]);
    expect(['M-B1', 'M-B2'].map((m) => filesWith(active, m).length)).toEqual([0, 0]);
    expect(['M-A1', 'M-A2'].map((m) => filesWith(callee, m).length)).toEqual([0, 0]);
  });

  it('falls back to the old labelling when the role history is garbled', async () => {
    const s = await session();
    s.answer('session-start', { source: 'startup' });
    s.t.append(turn('M-A1', A1));
    const file = roleHistoryFilePath(s.h.config(), s.t.sessionId);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{not json\n\u0000\u0001garbage\n');
    s.t.append({ user: `${CALLEE.name}，幫我排部署`, reply: '' });
    const load = s.answer('user-prompt-submit', { prompt: `${CALLEE.name}，幫我排部署` });
    // The garbled lines are skipped; the call's own change is recorded after them, so the turn
    // before it has no known speaker and keeps the loading role's label, as before the history.
    expect(linesWith(dialogOf(load), A1)).toEqual([`${CALLEE.name}: ${A1}`]);
  });
});

describe('role attribution survives SessionEnd (issue 13)', () => {
  it('a resumed session continues as the called role with the one-line reminder, holding its lock', async () => {
    const s = await session();
    expect(s.answer('session-start', { source: 'startup' })).toContain(ACTIVE.name);
    s.t.append(turn('M-A1', A1));
    expect(s.answer('user-prompt-submit', { prompt: `${CALLEE.name}，幫我排部署` })).toContain(CALLEE.name);
    s.t.append(turn('M-B1', B1));
    await s.queue('session-end', { reason: 'prompt_input_exit' });

    const resumed = s.answer('session-start', { source: 'resume' });
    expect(resumed).toContain(resumeReminder('zh-TW', CALLEE.name));
    expect(resumed).not.toContain('## 最近的對話');
    expect(resumed).not.toContain(ACTIVE.name);
    const lock = JSON.parse(fs.readFileSync(path.join(s.h.roleHome, '.locks', `${CALLEE.id}.lock`), 'utf8')) as { sessionKey: string };
    expect(lock.sessionKey).toBe(s.t.sessionId);
    expect(fs.existsSync(path.join(s.h.roleHome, '.locks', `${ACTIVE.id}.lock`))).toBe(false);
  });

  it('a resumed session whose called role another session took meanwhile is told so, not given the default role', async () => {
    const s = await session();
    s.answer('session-start', { source: 'startup' });
    s.answer('user-prompt-submit', { prompt: `${CALLEE.name}，幫我排部署` });
    s.t.append(turn('M-B1', B1));
    await s.queue('session-end', { reason: 'prompt_input_exit' });
    const other = s.h.transcript('sess-other');
    expect(claimRole(s.h.config(), CALLEE.id, { assistant: 'claude', sessionId: 'sess-other', transcriptPath: other }).ok).toBe(true);

    const resumed = s.answer('session-start', { source: 'resume' });
    expect(resumed).toContain(`${CALLEE.name}（${CALLEE.id}）目前由另一個仍在進行的工作階段載入`);
    expect(resumed).not.toContain('## 最近的對話');
  });

  it("a daemon-spooled Stop of the called role is filed under it though the session's SessionEnd ran first", async () => {
    const s = await session();
    s.answer('session-start', { source: 'startup' });
    s.answer('user-prompt-submit', { prompt: `${CALLEE.name}，幫我排部署` });
    s.t.append(turn('M-B1', B1));
    // Without the app the hook releases the session at once; the Stop, spooled by a daemon that
    // died before handling it, carries no roleId and is ingested afterwards.
    await s.queue('session-end', { reason: 'prompt_input_exit' });
    await s.queue('stop', stop(B1));
    expect(filesWith(inboxTexts(s.h, CALLEE.id), 'M-B1')).toHaveLength(1);
    expect(filesWith(inboxTexts(s.h, ACTIVE.id), 'M-B1')).toEqual([]);
  });
});
