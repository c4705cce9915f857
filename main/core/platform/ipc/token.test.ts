import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureToken, readToken, tokensEqual } from './token.js';

describe('IPC token', () => {
  const dirs: string[] = [];
  const tokenFile = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-token-'));
    dirs.push(dir);
    return path.join(dir, 'state', 'token');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates a private 32-byte token in a private folder, and reuses it', () => {
    const file = tokenFile();
    expect(readToken(file)).toBeUndefined();
    const token = ensureToken(file);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(ensureToken(file)).toBe(token);
    expect(readToken(file)).toBe(token);
  });

  it('replaces a token others could read, and a file that holds no token', () => {
    const file = tokenFile();
    const first = ensureToken(file);
    fs.chmodSync(file, 0o644);
    const warnings: string[] = [];
    const second = ensureToken(file, (message) => warnings.push(message));
    expect(second).not.toBe(first);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(warnings[0]).toMatch(/had mode 644/);
    fs.writeFileSync(file, 'garbage');
    expect(ensureToken(file, (message) => warnings.push(message))).toMatch(/^[0-9a-f]{64}$/);
    expect(warnings[1]).toMatch(/did not hold a token/);
  });

  it('compares tokens', () => {
    const token = 'b'.repeat(64);
    expect(tokensEqual(token, token)).toBe(true);
    expect(tokensEqual('c'.repeat(64), token)).toBe(false);
    expect(tokensEqual('', token)).toBe(false);
    // The expected token's digest is kept between calls: a new token (the file was replaced) is not judged by the old one's.
    const renewed = 'd'.repeat(64);
    expect(tokensEqual(token, renewed)).toBe(false);
    expect(tokensEqual(renewed, renewed)).toBe(true);
    expect(tokensEqual(token, token)).toBe(true);
  });
});
