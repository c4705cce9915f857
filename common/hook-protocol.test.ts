import { describe, expect, it } from 'vitest';
import {
  PROTOCOL_VERSION,
  encodeMessage,
  errorReply,
  okReply,
  parseReplyLine,
  parseRequestLine,
  parseSpoolRecord,
  statusReply,
  type DaemonStatus,
  type IpcRequest,
} from './hook-protocol.js';

const token = 'a'.repeat(64);
const hook: IpcRequest = {
  v: 1,
  id: 'e1',
  token,
  kind: 'hook',
  assistant: 'codex',
  event: 'stop',
  payload: { text: 'line one\nline two' },
  env: { ROLE_NAME: 'KIOKU01' },
};
const status: DaemonStatus = {
  pid: 42,
  startedAt: '2026-01-01T00:00:00.000Z',
  version: '0.1.0',
  ready: true,
  memoryHome: '/home/u/.memory',
  spoolPending: 0,
  queue: { busy: false, handled: 3, failed: 0 },
};

describe('hook protocol', () => {
  it('round-trips every request kind through one line', () => {
    for (const request of [hook, { v: 1, id: 'p', token, kind: 'ping' }, { v: 1, id: 's', token, kind: 'status' }] as IpcRequest[]) {
      const line = encodeMessage(request);
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toContain('\n');
      expect(parseRequestLine(line.slice(0, -1))).toEqual({ ok: true, value: request });
    }
  });

  it('round-trips replies: hook, error and status', () => {
    for (const reply of [okReply('e1', 'context'), errorReply('e1', 'handler-failed', 'boom'), statusReply('s', status)]) {
      expect(parseReplyLine(encodeMessage(reply).trim())).toEqual({ ok: true, value: reply });
    }
  });

  it('names what is wrong with a bad request, and keeps its id for the reply', () => {
    expect(parseRequestLine('{nope')).toMatchObject({ ok: false, id: '', code: 'bad-json' });
    expect(parseRequestLine(JSON.stringify({ ...hook, v: 2 }))).toMatchObject({ ok: false, id: 'e1', code: 'bad-version' });
    const wrong = parseRequestLine(JSON.stringify({ ...hook, event: 'lunch', assistant: 'vim' }));
    expect(wrong).toMatchObject({ ok: false, id: 'e1', code: 'bad-request' });
    expect(!wrong.ok && wrong.message).toMatch(/assistant: invalid_value .*claude, codex, gemini/);
    expect(!wrong.ok && wrong.message).toMatch(/event: invalid_value/);
    expect(parseRequestLine(JSON.stringify({ v: 1, id: '', token, kind: 'ping' }))).toMatchObject({ ok: false, code: 'bad-request' });
    expect(parseRequestLine(JSON.stringify({ v: 1, id: 'x', token, kind: 'shutdown' }))).toMatchObject({
      ok: false,
      id: 'x',
      code: 'bad-request',
    });
    expect(parseRequestLine('[1,2]')).toMatchObject({
      ok: false,
      code: 'bad-request',
      message: 'request must be a JSON object, got an array',
    });
  });

  it('insists on exitCode 0 in replies (hooks fail open)', () => {
    expect(parseReplyLine(JSON.stringify({ ...okReply('x', ''), exitCode: 2 }))).toMatchObject({ ok: false, code: 'bad-request' });
  });

  it('validates spool records', () => {
    const record = {
      v: PROTOCOL_VERSION,
      eventId: 'e1',
      assistant: 'claude',
      event: 'session-end',
      payload: null,
      env: {},
      spooledAt: '2026-01-01T00:00:00.000Z',
      spooledBy: 'hook',
    };
    expect(parseSpoolRecord(JSON.stringify(record))).toMatchObject({ ok: true, value: record });
    expect(parseSpoolRecord(JSON.stringify({ ...record, eventId: undefined }))).toMatchObject({ ok: false, code: 'bad-request' });
    expect(parseSpoolRecord('{"v":1,')).toMatchObject({ ok: false, code: 'bad-json' });
  });
});
