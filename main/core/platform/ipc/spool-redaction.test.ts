import { describe, expect, it } from 'vitest';
import type { AssistantName, HookEventName } from '../../../../common/hook-events.js';
import { ALL_SECRETS, SECRET_PROMPT, SECRET_REPLY, SECRETS } from '../../../../test/helpers/secrets.js';
import { adapterFor } from '../../integrations/assistants/adapters.js';
import { redactSync } from '../privacy/redact-sync.js';
import { redactPayloadForSpool } from './spool-redaction.js';

const NOW = new Date('2026-03-10T06:00:00Z');
// Gemini keeps a project's chats under a SHA-256 of its path: 64 hex digits, which the hex-token
// pattern masks in prose.
const GEMINI_TRANSCRIPT = `/home/yui/.gemini/tmp/${'0123456789abcdef'.repeat(4)}/chats/session-2026-03-10T06-00-abc.json`;

/** The spooled events' payloads as each assistant sends them (ASSISTANTS.md), carrying secrets. */
const PAYLOADS: Array<[AssistantName, HookEventName, Record<string, unknown>]> = [
  [
    'claude',
    'stop',
    {
      session_id: 'c1',
      transcript_path: '/home/yui/.claude/projects/-shop/c1.jsonl',
      cwd: '/home/yui/shop',
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: SECRET_REPLY,
    },
  ],
  [
    'claude',
    'post-compact',
    {
      session_id: 'c1',
      transcript_path: '/t/c1.jsonl',
      cwd: '/home/yui/shop',
      hook_event_name: 'PostCompact',
      trigger: 'auto',
      compact_summary: `${SECRET_PROMPT}\n${SECRET_REPLY}`,
    },
  ],
  [
    'claude',
    'pre-compact',
    {
      session_id: 'c1',
      transcript_path: '/t/c1.jsonl',
      cwd: '/home/yui/shop',
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      custom_instructions: SECRET_PROMPT,
    },
  ],
  [
    'codex',
    'stop',
    {
      session_id: 'x1',
      turn_id: 't1',
      transcript_path: null,
      cwd: '/home/yui/shop',
      hook_event_name: 'Stop',
      model: 'gpt-5-codex',
      last_assistant_message: SECRET_REPLY,
    },
  ],
  [
    'gemini',
    'stop',
    {
      session_id: 'g1',
      transcript_path: GEMINI_TRANSCRIPT,
      cwd: '/home/yui/shop',
      hook_event_name: 'AfterAgent',
      timestamp: '2026-03-10T06:00:00.000Z',
      prompt: SECRET_PROMPT,
      prompt_response: SECRET_REPLY,
      stop_hook_active: false,
    },
  ],
  [
    'gemini',
    'pre-compact',
    { session_id: 'g1', transcript_path: GEMINI_TRANSCRIPT, cwd: '/home/yui/shop', hook_event_name: 'PreCompress', trigger: 'auto' },
  ],
];

describe('redactPayloadForSpool', () => {
  it.each(PAYLOADS)(
    '%s %s: no secret left, and the event parses to the same identifiers with the reply redacted',
    (assistant, event, payload) => {
      const redacted = redactPayloadForSpool(payload);
      const text = JSON.stringify(redacted);
      for (const secret of ALL_SECRETS) expect(text).not.toContain(secret);
      const before = adapterFor(assistant).parseEvent(event, payload, NOW);
      const after = adapterFor(assistant).parseEvent(event, redacted, NOW);
      // Everything ingestion reads as it is: session, transcript, folder, trigger, field names.
      const { lastAssistantMessage, prompt, compactSummary, ...ids } = before;
      expect(after).toEqual({
        ...ids,
        ...(lastAssistantMessage !== undefined ? { lastAssistantMessage: redactSync(lastAssistantMessage) } : {}),
        ...(prompt !== undefined ? { prompt: redactSync(prompt) } : {}),
        ...(compactSummary !== undefined ? { compactSummary: redactSync(compactSummary) } : {}),
      });
    },
  );

  it('keeps a Gemini transcript path whole though it holds 64 hex digits', () => {
    expect(redactSync(GEMINI_TRANSCRIPT)).not.toBe(GEMINI_TRANSCRIPT); // what would happen to it as prose
    expect(redactPayloadForSpool({ transcript_path: GEMINI_TRANSCRIPT, transcriptPath: GEMINI_TRANSCRIPT })).toEqual({
      transcript_path: GEMINI_TRANSCRIPT,
      transcriptPath: GEMINI_TRANSCRIPT,
    });
  });

  it('masks strings at any depth, in arrays, in field names, and values under a secret-named key', () => {
    const redacted = redactPayloadForSpool({
      llm_request: {
        messages: [{ role: 'user', content: [{ type: 'text', text: SECRET_PROMPT }] }],
        config: { password: 'hunter2', db_pass: 424242, secret: true },
      },
      tool_input: { env: { GITHUB_TOKEN: 'plain-looking-value', [SECRETS.github]: 'a key that is a token' } },
    });
    const text = JSON.stringify(redacted);
    for (const secret of [...ALL_SECRETS, 'hunter2', '424242', 'plain-looking-value']) expect(text).not.toContain(secret);
    expect(redacted).toMatchObject({
      llm_request: {
        messages: [{ role: 'user', content: [{ type: 'text', text: redactSync(SECRET_PROMPT) }] }],
        config: { password: '[REDACTED:secret]', db_pass: '[REDACTED:secret]', secret: true },
      },
      tool_input: { env: { GITHUB_TOKEN: '[REDACTED:secret]', '[REDACTED:github-token]': 'a key that is a token' } },
    });
  });

  it('bounds the walk: below 16 levels the rest is kept as one redacted JSON string', () => {
    let deep: unknown = { note: SECRET_REPLY };
    for (let i = 0; i < 40; i++) deep = { next: deep };
    const text = JSON.stringify(redactPayloadForSpool({ deep }));
    for (const secret of ALL_SECRETS) expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED:aws-key]');
  });

  it('keeps a `__proto__` field a field', () => {
    const redacted = redactPayloadForSpool(
      JSON.parse(`{"__proto__": {"note": "${SECRET_REPLY}"}, "x": {"__proto__": "${SECRET_PROMPT}"}}`),
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.keys(redacted)).toEqual(['__proto__', 'x']);
    const text = JSON.stringify(redacted);
    expect(text).toContain('"__proto__":{"note":');
    for (const secret of ALL_SECRETS) expect(text).not.toContain(secret);
  });

  it('leaves what is not a payload object as it is, strings redacted', () => {
    expect(redactPayloadForSpool(null)).toBeNull();
    expect(redactPayloadForSpool(3)).toBe(3);
    expect(redactPayloadForSpool(SECRET_REPLY)).toBe(redactSync(SECRET_REPLY));
    expect(JSON.stringify(redactPayloadForSpool([SECRET_PROMPT]))).not.toContain(SECRETS.anthropic);
  });
});
