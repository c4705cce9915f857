import { describe, expect, it } from 'vitest';
import { ASSISTANTS, HOOK_EVENTS } from './hook-events.js';
import { parseRequestLine, PROTOCOL_VERSION, schemaCheckedRequest } from './hook-protocol.js';
import { acceptHookRequest } from './hook-request-check.js';

const base = (): Record<string, unknown> => ({
  v: PROTOCOL_VERSION,
  id: 'e1',
  token: 'a'.repeat(64),
  kind: 'hook',
  assistant: 'claude',
  event: 'session-start',
  payload: { session_id: 's1', prompt: '小記，幫我看一下' },
  env: { ROLE_NAME: '小記', KIOKU_TRACE: '' },
  at: '2026-12-06T14:00:00.000+08:00',
});

/** Values of every JSON type, and strings at and past each field's length limits. */
const odd: unknown[] = [
  null,
  true,
  0,
  1.5,
  '',
  'x',
  [],
  ['a'],
  {},
  { a: 1 },
  'x'.repeat(40),
  'x'.repeat(41),
  'x'.repeat(128),
  'x'.repeat(129),
  'x'.repeat(256),
  'x'.repeat(257),
];

/** The base request with one field changed, removed, or one key added; every field in turn. */
function variants(): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [['as is', base()]];
  for (const key of Object.keys(base())) {
    const without = base();
    delete without[key];
    out.push([`without ${key}`, without]);
    for (const value of [...odd, ...ASSISTANTS, ...HOOK_EVENTS, 'ping', 'status', 'recall', PROTOCOL_VERSION + 1])
      out.push([`${key} = ${JSON.stringify(value)?.slice(0, 30)}`, { ...base(), [key]: value }]);
  }
  for (const env of [{ A: 1 }, { A: null }, { A: 'b', B: ['c'] }, JSON.parse('{"__proto__":"x","A":"b"}'), { ['中文']: '值' }])
    out.push([`env ${JSON.stringify(env)}`, { ...base(), env }]);
  out.push(['an extra key', { ...base(), extra: 'dropped' }]);
  out.push(['payload null', { ...base(), payload: null }]);
  return out;
}

describe('the hook request checked by hand (hook-request-check.ts)', () => {
  it('accepts exactly what the schema accepts of hook requests, and gives what it gives', () => {
    let accepted = 0;
    for (const [what, value] of variants()) {
      // Through JSON, as the daemon gets it: __proto__ stays an own key, as JSON.parse leaves it.
      const parsed = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
      const fast = acceptHookRequest(parsed);
      const bySchema = schemaCheckedRequest(JSON.parse(JSON.stringify(value)));
      if (fast) {
        accepted++;
        expect(bySchema, what).toBeDefined();
        expect(fast, what).toStrictEqual(bySchema);
      } else if (bySchema?.kind === 'hook') {
        // Left to the schema is allowed only for what the hand check declines on purpose.
        expect(what, `declined although the schema accepts it: ${what}`).toMatch(/__proto__/);
      }
    }
    expect(accepted).toBeGreaterThan(20);
  });

  it('leaves a broken request to the schema, which words the problem', () => {
    const line = JSON.stringify({ ...base(), id: '' });
    const result = parseRequestLine(line);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/^invalid request: id/);
  });

  it('drops keys the schema does not know, as the schema does', () => {
    const result = parseRequestLine(JSON.stringify({ ...base(), extra: 'x' }));
    expect(result.ok && Object.keys(result.value)).not.toContain('extra');
  });
});
