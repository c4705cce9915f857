import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileExclusiveSync, isTempFileName, writeFileAtomicSync } from './atomic-write.js';
import { acquireLock, readLockInfo, tryAcquireLock } from './file-lock.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-fs-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomicSync', () => {
  it('replaces the file and leaves no temp file behind', () => {
    const file = path.join(dir, 'sub', 'a.md');
    writeFileAtomicSync(file, 'one');
    writeFileAtomicSync(file, '二');
    expect(fs.readFileSync(file, 'utf8')).toBe('二');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['a.md']);
  });

  it('keeps the old file when the write fails', () => {
    const file = path.join(dir, 'a.md');
    writeFileAtomicSync(file, 'old');
    fs.chmodSync(dir, 0o500);
    try {
      if (process.getuid?.() === 0) return; // root ignores folder permissions; nothing to observe
      expect(() => writeFileAtomicSync(file, 'new')).toThrow();
      expect(fs.readFileSync(file, 'utf8')).toBe('old');
    } finally {
      fs.chmodSync(dir, 0o700);
    }
  });

  it('names temp files so scanners can skip them', () => {
    expect(isTempFileName('.a.md.123-abcd.tmp')).toBe(true);
    expect(isTempFileName('a.md')).toBe(false);
  });
});

describe('createFileExclusiveSync', () => {
  it('creates once and refuses to overwrite', () => {
    const file = path.join(dir, 'x');
    expect(createFileExclusiveSync(file, '1')).toBe(true);
    expect(createFileExclusiveSync(file, '2')).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('1');
    expect(fs.readdirSync(dir)).toEqual(['x']);
  });
});

describe('file lock', () => {
  it('is exclusive until released', () => {
    const file = path.join(dir, '.lock');
    const first = acquireLock(file, { purpose: 'test' });
    expect(tryAcquireLock(file, { purpose: 'second' })).toBeUndefined();
    expect(() => acquireLock(file, { purpose: 'second' })).toThrow(/held by process/);
    first.release();
    const second = tryAcquireLock(file, { purpose: 'second' });
    expect(second).toBeDefined();
    second!.release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('takes over a lock whose process is gone', () => {
    const file = path.join(dir, '.lock');
    fs.writeFileSync(file, JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), since: Date.now(), purpose: 'dead' }));
    const lock = tryAcquireLock(file, { purpose: 'alive' });
    expect(lock).toBeDefined();
    expect(readLockInfo(file)?.purpose).toBe('alive');
    lock!.release();
  });

  it('takes over a lock older than staleMs', () => {
    const file = path.join(dir, '.lock');
    fs.writeFileSync(file, JSON.stringify({ pid: process.pid, host: os.hostname(), since: Date.now() - 10_000, purpose: 'old' }));
    expect(tryAcquireLock(file, { purpose: 'new', staleMs: 60_000 })).toBeUndefined();
    expect(tryAcquireLock(file, { purpose: 'new', staleMs: 5_000 })).toBeDefined();
  });
});
