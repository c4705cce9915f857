import { describe, expect, it } from 'vitest';
import { safeSessionKey, sessionKeyOf } from './session-key.js';

describe('sessionKeyOf', () => {
  it('uses the session id as is when it is already a safe name (seed-compatible file names)', () => {
    expect(sessionKeyOf({ sessionId: '6f1c2a8e-0b7d-4f5e-9a31-2c4d5e6f7a8b', transcriptPath: '/t/x.jsonl' })).toBe(
      '6f1c2a8e-0b7d-4f5e-9a31-2c4d5e6f7a8b',
    );
  });

  it('falls back to the transcript file name without its extension', () => {
    expect(sessionKeyOf({ sessionId: undefined, transcriptPath: '/home/u/.claude/projects/p/abc-123.jsonl' })).toBe('abc-123');
    expect(sessionKeyOf({ sessionId: '  ', transcriptPath: '/t/rollout-2026.json' })).toBe('rollout-2026');
  });

  it('is undefined when the event has neither', () => {
    expect(sessionKeyOf({ sessionId: undefined, transcriptPath: undefined })).toBeUndefined();
  });

  it('sanitises unsafe text and keeps different ids apart', () => {
    const a = safeSessionKey('../../etc/passwd');
    expect(a).toMatch(/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/);
    expect(a.startsWith('.')).toBe(false);
    expect(safeSessionKey('a/b')).not.toBe(safeSessionKey('a_b'));
    expect(safeSessionKey('a_b')).toBe('a_b');
    expect(safeSessionKey('對話')).toMatch(/^__-[0-9a-f]{10}$/);
    expect(safeSessionKey('...')).toMatch(/^session-[0-9a-f]{10}$/);
    expect(safeSessionKey('NUL')).toMatch(/^NUL-[0-9a-f]{10}$/);
    expect(safeSessionKey('x'.repeat(500)).length).toBeLessThanOrEqual(131);
  });
});
