import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookCall } from '../../common/hook-protocol.js';
import { silentLogger } from '../../main/core/platform/config/log.js';
import { handleQueuedCall } from '../../main/core/hosts/hook-handlers/handle-queued-call.js';
import { memoryStateFile } from '../../main/core/store/memory/memory-state.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { ROLE, captureHomeEnv, createCaptureRole, inboxTexts } from '../ipc/capture-session-kit.js';

/**
 * Issue 13, item 1, as Gemini CLI 0.61 does it (ASSISTANTS.md §Seen with the real clients): the
 * SessionStart context is the first user message's `<hook_context>` block, before the prompt;
 * AfterAgent's `prompt` carries that same combined text; PreCompress fires at session start and
 * before model calls with nothing to compress. The turn's memory holds the user's real words and
 * none of Kioku's own text, and a PreCompress with no new dialogue writes nothing.
 */
let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

/** A line of the shared behaviour rules Kioku injects at SessionStart (resources/agents/). */
const RULES = '## 共用行為\n- 角色設定不是編造事實的理由：不知道就說不知道。\n- 使用者的感受比完成任務更重要，記住這點。';
const LOAD = `<hook_context>${RULES}</hook_context>`;
const TURN = { user: '記住：發版前一定要先在 staging 跑完 smoke test。', reply: '好，之後發版前我都會先在 staging 跑 smoke test。' };

/** Gemini's session document, pretty-printed as its ChatRecordingService writes it. */
class GeminiSession {
  readonly sessionId = 'gemini-session-1';
  readonly file: string;
  private readonly messages: Record<string, unknown>[] = [];

  constructor(readonly cwd: string) {
    const dir = path.join(cwd, '.gemini', 'tmp', 'p', 'chats');
    fs.mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, 'session-2026-03-10T14-00-gemini.json');
  }

  add(type: 'user' | 'gemini', content: unknown): void {
    const at = new Date(Date.parse('2026-03-10T06:00:00Z') + (this.messages.length + 1) * 1_000).toISOString();
    this.messages.push({ id: `m${this.messages.length + 1}`, timestamp: at, type, content });
    fs.writeFileSync(this.file, JSON.stringify({ sessionId: this.sessionId, projectHash: 'p', messages: this.messages }, null, 2));
  }

  payload(extra: Record<string, unknown>): Record<string, unknown> {
    return { session_id: this.sessionId, transcript_path: this.file, cwd: this.cwd, timestamp: '2026-03-10T06:00:00Z', ...extra };
  }
}

let n = 0;
function setUp() {
  home = makeTempHome(captureHomeEnv());
  createCaptureRole(home);
  const ctx = { config: home.config(), logger: silentLogger, host: 'daemon' as const };
  const session = new GeminiSession(home.root);
  const queue = (event: 'stop' | 'pre-compact', payload: Record<string, unknown>) => {
    const call: HookCall = { eventId: `gem-${++n}`, assistant: 'gemini', event, payload, env: {} };
    return handleQueuedCall(ctx, call);
  };
  const stateFile = memoryStateFile(home.memoryHome, ROLE.id);
  const stateText = () => (fs.existsSync(stateFile) ? fs.readFileSync(stateFile, 'utf8') : undefined);
  return { session, queue, stateText };
}

function allInbox(): string {
  return [...inboxTexts(home!).values()].join('\n');
}

describe('Gemini CLI: injected text never becomes memory (issue 13)', () => {
  it("a turn's memory holds the user's words, not the <hook_context> Kioku injected", async () => {
    const { session, queue } = setUp();
    session.add('user', `${LOAD}${TURN.user}`);
    session.add('gemini', TURN.reply);
    await queue('stop', session.payload({ hook_event_name: 'AfterAgent', prompt: `${LOAD}${TURN.user}`, prompt_response: TURN.reply }));
    const inbox = inboxTexts(home!);
    expect(inbox.size).toBe(1);
    expect(allInbox()).toContain('staging');
    expect(allInbox()).not.toMatch(/編造事實|共用行為|使用者的感受/);
  });

  it("takes the user's words from AfterAgent's prompt when the transcript holds only the injected block", async () => {
    const { session, queue } = setUp();
    // The transcript has not caught up with the prompt: its only user message is SessionStart's context.
    session.add('user', [{ text: LOAD }]);
    await queue('stop', session.payload({ hook_event_name: 'AfterAgent', prompt: `${LOAD}${TURN.user}`, prompt_response: TURN.reply }));
    expect(inboxTexts(home!).size).toBe(1);
    expect(allInbox()).toContain('smoke test');
    expect(allInbox()).not.toMatch(/編造事實|共用行為/);
  });

  it('PreCompress at session start, with nothing the user said, writes nothing — not even state.json', async () => {
    const { session, queue, stateText } = setUp();
    const before = stateText();
    // Before the first prompt there is no transcript yet; then one holding only the injected context.
    await queue('pre-compact', session.payload({ hook_event_name: 'PreCompress', trigger: 'auto' }));
    session.add('user', [{ text: LOAD }]);
    await queue('pre-compact', session.payload({ hook_event_name: 'PreCompress', trigger: 'auto' }));
    expect(inboxTexts(home!).size).toBe(0);
    expect(stateText()).toBe(before);
  });

  it('PreCompress before the next model call, after the Stop of the last turn, writes nothing', async () => {
    const { session, queue, stateText } = setUp();
    session.add('user', `${LOAD}${TURN.user}`);
    session.add('gemini', TURN.reply);
    await queue('stop', session.payload({ hook_event_name: 'AfterAgent', prompt: `${LOAD}${TURN.user}`, prompt_response: TURN.reply }));
    const after = stateText();
    await queue('pre-compact', session.payload({ hook_event_name: 'PreCompress', trigger: 'auto' }));
    expect(inboxTexts(home!).size).toBe(1);
    expect(stateText()).toBe(after);
  });

  it('PreCompress between the model calls of one turn (after a tool call) and its AfterAgent: the turn is in the inbox once', async () => {
    const { session, queue } = setUp();
    session.add('user', `${LOAD}${TURN.user}`);
    session.add('gemini', [{ text: '我先看一下部署設定。' }, { functionCall: { name: 'read_file', args: { path: 'deploy.yml' } } }]);
    await queue('pre-compact', session.payload({ hook_event_name: 'PreCompress', trigger: 'auto' }));
    session.add('gemini', TURN.reply);
    await queue('stop', session.payload({ hook_event_name: 'AfterAgent', prompt: `${LOAD}${TURN.user}`, prompt_response: TURN.reply }));
    expect(inboxTexts(home!).size).toBe(1);
    expect(allInbox()).toContain('staging');
  });

  it('PreCompress after a short turn its Stop let go writes nothing either', async () => {
    const { session, queue } = setUp();
    session.add('user', `${LOAD}好`);
    session.add('gemini', '收到。');
    await queue('stop', session.payload({ hook_event_name: 'AfterAgent', prompt: `${LOAD}好`, prompt_response: '收到。' }));
    await queue('pre-compact', session.payload({ hook_event_name: 'PreCompress', trigger: 'auto' }));
    expect(inboxTexts(home!).size).toBe(0);
  });
});
