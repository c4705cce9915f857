import { describe, expect, it } from 'vitest';
import { isKiokuError } from '../../../../common/errors.js';
import { HOOK_EVENTS, type HookEvent, type HookEventName } from '../../../../common/hook-events.js';
import { adapterFor, parseHookStdin } from './adapters.js';

const NOW = new Date('2026-03-14T09:00:00.000Z');
const claude = adapterFor('claude');
const codex = adapterFor('codex');
const gemini = adapterFor('gemini');

describe('parseEvent', () => {
  it('reads Claude Code SessionStart fields and keeps the payload keys', () => {
    const event = claude.parseEvent(
      'session-start',
      {
        session_id: 's1',
        transcript_path: '/t/s1.jsonl',
        cwd: '/repo',
        hook_event_name: 'SessionStart',
        source: 'compact',
        model: 'claude-opus-4-5',
      },
      NOW,
    );
    expect(event).toEqual({
      assistant: 'claude',
      event: 'session-start',
      sessionId: 's1',
      transcriptPath: '/t/s1.jsonl',
      cwd: '/repo',
      source: 'compact',
      model: 'claude-opus-4-5',
      receivedAt: '2026-03-14T09:00:00.000Z',
      payloadKeys: ['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'source', 'model'],
    });
  });

  it('reads Stop, SessionEnd and SubagentStart fields', () => {
    expect(claude.parseEvent('stop', { last_assistant_message: '好了', stop_hook_active: true }, NOW)).toMatchObject({
      lastAssistantMessage: '好了',
      stopHookActive: true,
    });
    expect(claude.parseEvent('session-end', { reason: 'prompt_input_exit' }, NOW).reason).toBe('prompt_input_exit');
    expect(claude.parseEvent('subagent-start', { agent_id: 'a1', agent_type: 'Explore' }, NOW)).toMatchObject({
      agentId: 'a1',
      agentType: 'Explore',
    });
  });

  it.each(['compact_summary', 'compactSummary', 'summary', 'compaction_summary'])(
    'CAP-5: takes the compaction summary from %s',
    (field) => {
      const event = claude.parseEvent('post-compact', { trigger: 'auto', [field]: 'We fixed the 401.' }, NOW);
      expect(event.compactSummary).toBe('We fixed the 401.');
      expect(event.trigger).toBe('auto');
      expect(event.payloadKeys).toContain(field);
    },
  );

  it('CAP-5: no summary field leaves the field names for the log', () => {
    const event = codex.parseEvent('post-compact', { session_id: 's', trigger: 'manual', turn_id: 't' }, NOW);
    expect(event.compactSummary).toBeUndefined();
    expect(event.payloadKeys).toEqual(['session_id', 'trigger', 'turn_id']);
  });

  it('tolerates missing and odd fields on any object', () => {
    const odd = {
      session_id: 42,
      transcript_path: null,
      cwd: ['x'],
      source: 'reboot',
      trigger: 'sometimes',
      prompt: { text: 'x' },
      stop_hook_active: 'yes',
    };
    for (const adapter of [claude, codex, gemini]) {
      for (const name of HOOK_EVENTS) {
        const event = adapter.parseEvent(name, odd, NOW);
        expect(event.sessionId).toBeUndefined();
        expect(event.transcriptPath).toBeUndefined(); // LOCK-3: Codex may send null
        expect(typeof event.cwd).toBe('string');
        expect(event.source).toBeUndefined();
        expect(event.trigger).toBeUndefined();
        expect(event.prompt).toBeUndefined();
        expect(event.stopHookActive).toBeUndefined();
        // Only the two fields HookEvent declares as `string | undefined` may hold undefined.
        const { sessionId: _s, transcriptPath: _t, ...rest } = event;
        expect(Object.values(rest)).not.toContain(undefined);
      }
      expect(adapter.parseEvent('stop', {}, NOW).payloadKeys).toEqual([]);
    }
  });

  it('refuses a payload that is not an object with a clear error', () => {
    for (const bad of [null, [], 'text', 3, undefined]) {
      let caught: unknown;
      try {
        gemini.parseEvent('stop', bad, NOW);
      } catch (error) {
        caught = error;
      }
      expect(isKiokuError(caught)).toBe(true);
      expect((caught as Error).message).toMatch(/^gemini hook stdin must be a JSON object, got /);
    }
  });

  it('maps Gemini payloads: AfterAgent reply, BeforeAgent prompt, SessionStart trigger, SessionEnd trigger', () => {
    const stop = gemini.parseEvent('stop', { prompt: '改成 300', prompt_response: '已改成 300。', stop_hook_active: false }, NOW);
    expect(stop).toMatchObject({ assistant: 'gemini', prompt: '改成 300', lastAssistantMessage: '已改成 300。', stopHookActive: false });
    expect(gemini.parseEvent('user-prompt-submit', { prompt: 'hi' }, NOW).prompt).toBe('hi');
    expect(gemini.parseEvent('session-start', { trigger: 'resume' }, NOW).source).toBe('resume');
    expect(gemini.parseEvent('session-end', { trigger: 'exit' }, NOW).reason).toBe('exit');
    expect(gemini.parseEvent('pre-compact', { trigger: 'auto' }, NOW).trigger).toBe('auto');
  });

  it("issue 13: Gemini's prompt without the hooks' <hook_context> blocks and the @-mentioned files", () => {
    const load = '<hook_context>## 共用行為\n- 角色設定不是編造事實的理由。</hook_context>';
    const combined = `${load}記住：發版前先在 staging 跑 smoke test<hook_context>（BeforeAgent 的提醒）</hook_context>`;
    expect(gemini.parseEvent('stop', { prompt: combined, prompt_response: '好。' }, NOW).prompt).toBe(
      '記住：發版前先在 staging 跑 smoke test',
    );
    expect(gemini.parseEvent('user-prompt-submit', { prompt: `${load}西莉卡，幫我看這段` }, NOW).prompt).toBe('西莉卡，幫我看這段');
    const mention = '看一下 @README.md\n--- Content from referenced files ---\nContent from @README.md:\n# 專案';
    expect(gemini.parseEvent('stop', { prompt: mention }, NOW).prompt).toBe('看一下 @README.md');
    // Nothing the user typed left: no prompt at all, as for a missing one.
    expect(gemini.parseEvent('stop', { prompt: load, prompt_response: '好。' }, NOW).prompt).toBeUndefined();
  });

  it("issue 13: Claude Code's and Codex's UserPromptSubmit prompt without injected reminders", () => {
    for (const adapter of [claude, codex]) {
      expect(adapter.parseEvent('user-prompt-submit', { prompt: '<system-reminder>hook output</system-reminder>\n繼續' }, NOW).prompt).toBe(
        '繼續',
      );
    }
  });

  it('never reads a Claude prompt into Stop (only Gemini sends one)', () => {
    expect(claude.parseEvent('stop', { prompt: 'x' }, NOW).prompt).toBeUndefined();
  });
});

describe('event names', () => {
  it.each<[string, string, HookEventName | undefined]>([
    ['claude', 'SessionStart', 'session-start'],
    ['claude', 'user_prompt_submit', 'user-prompt-submit'],
    ['claude', 'PreToolUse', undefined],
    ['codex', 'PostCompact', 'post-compact'],
    ['gemini', 'BeforeAgent', 'user-prompt-submit'],
    ['gemini', 'AfterAgent', 'stop'],
    ['gemini', 'PreCompress', 'pre-compact'],
    ['gemini', 'session-end', 'session-end'],
    ['gemini', 'BeforeTool', undefined],
  ])('%s: %s → %s', (assistant, name, expected) => {
    expect(adapterFor(assistant).eventFromName(name)).toBe(expected);
  });

  it('knows which events each assistant lacks', () => {
    expect(codex.nativeEventName('session-end')).toBeUndefined();
    expect(gemini.nativeEventName('post-compact')).toBeUndefined();
    expect(gemini.nativeEventName('stop')).toBe('AfterAgent');
  });

  it('rejects an unknown assistant by name', () => {
    expect(() => adapterFor('copilot')).toThrow(/unknown assistant "copilot"/);
    expect(adapterFor(' Claude ').name).toBe('claude');
  });
});

describe('formatResult', () => {
  const ev = (event: HookEventName, assistant: 'claude' | 'codex' | 'gemini' = 'claude'): HookEvent => ({
    assistant,
    event,
    sessionId: 's',
    transcriptPath: undefined,
    cwd: '/',
    receivedAt: NOW.toISOString(),
    payloadKeys: [],
  });

  it('Claude: plain text for SessionStart and UserPromptSubmit', () => {
    expect(claude.formatResult(ev('session-start'), { additionalContext: '你是矽卡。' })).toBe('你是矽卡。');
    expect(claude.formatResult(ev('user-prompt-submit'), { additionalContext: 'called' })).toBe('called');
  });

  it('Claude: text starting with [ is still plain text', () => {
    expect(claude.formatResult(ev('session-start'), { additionalContext: '[kioku] 你是矽卡' })).toBe('[kioku] 你是矽卡');
  });

  it('Claude: text that starts with { goes out as JSON so it is not misparsed', () => {
    const out = claude.formatResult(ev('session-start'), { additionalContext: '  {"not": "json" but text' });
    expect(JSON.parse(out)).toEqual({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: '  {"not": "json" but text' },
    });
  });

  it('Claude and Codex: SubagentStart always uses hookSpecificOutput', () => {
    for (const adapter of [claude, codex]) {
      expect(JSON.parse(adapter.formatResult(ev('subagent-start'), { additionalContext: 'project memory' }))).toEqual({
        hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'project memory' },
      });
    }
  });

  it('Codex: plain text, but never stdout that looks like JSON and is not', () => {
    expect(codex.formatResult(ev('user-prompt-submit', 'codex'), { additionalContext: 'hello' })).toBe('hello');
    for (const text of ['[kioku] 你是矽卡', '{broken']) {
      const out = codex.formatResult(ev('user-prompt-submit', 'codex'), { additionalContext: text });
      expect(JSON.parse(out).hookSpecificOutput).toEqual({ hookEventName: 'UserPromptSubmit', additionalContext: text });
    }
  });

  it('Gemini: JSON only, with its own event names', () => {
    expect(JSON.parse(gemini.formatResult(ev('session-start', 'gemini'), { additionalContext: 'persona' }))).toEqual({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'persona' },
    });
    expect(
      JSON.parse(gemini.formatResult(ev('user-prompt-submit', 'gemini'), { additionalContext: 'x' })).hookSpecificOutput.hookEventName,
    ).toBe('BeforeAgent');
  });

  it('says nothing for an empty result or an event that takes no answer', () => {
    for (const adapter of [claude, codex, gemini]) {
      expect(adapter.formatResult(ev('session-start'), {})).toBe('');
      expect(adapter.formatResult(ev('session-start'), { additionalContext: '  \n' })).toBe('');
      for (const name of ['stop', 'pre-compact', 'post-compact', 'session-end'] as const) {
        expect(adapter.formatResult(ev(name), { additionalContext: 'ignored' })).toBe('');
      }
    }
    expect(gemini.formatResult(ev('subagent-start', 'gemini'), { additionalContext: 'x' })).toBe('');
  });
});

describe('parseHookStdin', () => {
  it('reads JSON, treats empty stdin as an empty payload, and names bad JSON', () => {
    expect(parseHookStdin('\uFEFF{"a":1}\n')).toEqual({ a: 1 });
    expect(parseHookStdin('  ')).toEqual({});
    expect(() => parseHookStdin('{"a":')).toThrow(/hook stdin is not valid JSON/);
  });
});
