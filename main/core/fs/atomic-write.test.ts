import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileExclusiveSync, isTempFileName, writeFileAtomicSync } from './atomic-write.js';
import { acquireLock, readLockInfo, tryAcquireLock } from './file-lock.js';
import { guardChild } from '../../../test/helpers/child-guard.js';

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

describe('stale lock takeover', () => {
  const staleLock = (file: string) =>
    fs.writeFileSync(file, JSON.stringify({ pid: 2 ** 22 + 4242, host: os.hostname(), since: Date.now(), purpose: 'dead' }));

  it('does not take over while another process holds the takeover guard', () => {
    const file = path.join(dir, '.lock');
    staleLock(file);
    fs.writeFileSync(`${file}.takeover`, '999');
    expect(tryAcquireLock(file, { purpose: 'second' })).toBeUndefined();
    expect(readLockInfo(file)?.purpose).toBe('dead');
    fs.rmSync(`${file}.takeover`);
    expect(tryAcquireLock(file, { purpose: 'second' })).toBeDefined();
  });

  it('clears a takeover guard abandoned by a process that died', () => {
    const file = path.join(dir, '.lock');
    staleLock(file);
    const guard = `${file}.takeover`;
    fs.writeFileSync(guard, '999');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(guard, old, old);
    expect(tryAcquireLock(file, { purpose: 'next', waitMs: 500 })?.file).toBe(file);
  });

  it('keeps mutual exclusion between real processes, starting from a stale lock', async () => {
    const file = path.join(dir, '.lock');
    const counter = path.join(dir, 'counter');
    fs.writeFileSync(counter, '0');
    staleLock(file);
    // Real processes need plain JavaScript: bundle the module under test with esbuild.
    const { buildSync } = await import('esbuild');
    const lockModule = path.join(dir, 'file-lock.mjs');
    buildSync({ entryPoints: [new URL('./file-lock.ts', import.meta.url).pathname], bundle: true, platform: 'node', format: 'esm', outfile: lockModule, logLevel: 'silent' });
    const worker = path.join(dir, 'worker.mjs');
    fs.writeFileSync(
      worker,
      `import fs from 'node:fs';
import { tryAcquireLock } from ${JSON.stringify(lockModule)};
for (let i = 0; i < 15; i++) {
  const lock = tryAcquireLock(${JSON.stringify(file)}, { purpose: 'w' + process.pid, waitMs: 20000 });
  if (!lock) process.exit(3);
  const n = Number(fs.readFileSync(${JSON.stringify(counter)}, 'utf8'));
  fs.writeFileSync(${JSON.stringify(counter)}, String(n + 1));
  lock.release();
}`,
    );
    const { spawn } = await import('node:child_process');
    // Each worker is killed at its deadline and at the end of the test (child-guard.ts).
    const codes = await Promise.all(
      Array.from({ length: 6 }, () => new Promise<number>((resolve) => guardChild(spawn(process.execPath, [worker], { stdio: 'ignore' })).on('exit', (code) => resolve(code ?? -1)))),
    );
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    expect(fs.readFileSync(counter, 'utf8')).toBe('90');
  });
});

describe('file modes', () => {
  it('creates private files and folders, and keeps the mode of a file it rewrites', () => {
    const file = path.join(dir, 'new', 'a.md');
    writeFileAtomicSync(file, 'one');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    fs.chmodSync(file, 0o640);
    writeFileAtomicSync(file, 'two');
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
  });
});
