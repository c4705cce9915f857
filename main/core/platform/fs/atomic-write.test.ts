import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileExclusiveSync, isTempFileName, writeFileAtomicSync } from './atomic-write.js';
import { acquireLock, readLockInfo, tryAcquireLock } from './file-lock.js';
import { guardChild } from '../../../../test/helpers/child-guard.js';

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

  it('takes over a live holder (a reused pid) only when held longer than staleMs by its since and seen unchanged that long', () => {
    const file = path.join(dir, '.lock');
    fs.writeFileSync(file, JSON.stringify({ pid: process.pid, host: os.hostname(), since: Date.now() - 10_000, purpose: 'old' }));
    expect(tryAcquireLock(file, { purpose: 'new', staleMs: 60_000 })).toBeUndefined(); // young by its since
    const firstSeen = Date.now();
    expect(tryAcquireLock(file, { purpose: 'new', staleMs: 300 })).toBeUndefined(); // old by its since, but just seen
    const lock = tryAcquireLock(file, { purpose: 'new', staleMs: 300, waitMs: 10_000 });
    expect(lock).toBeDefined();
    expect(Date.now() - firstSeen).toBeGreaterThanOrEqual(300);
    lock!.release();
    expect(fs.readdirSync(dir)).toEqual([]); // the lock and what was seen of it are gone
  });
});

describe('clock skew (issue 11)', () => {
  const DAY_MS = 24 * 3_600_000;
  const writeLock = (file: string, info: Record<string, unknown>, mtime?: Date) => {
    fs.writeFileSync(file, JSON.stringify(info));
    if (mtime) fs.utimesSync(file, mtime, mtime);
  };

  it('a lock whose since and mtime are a day in the past is not taken over while its holder process lives', async () => {
    const file = path.join(dir, '.lock');
    const { spawn } = await import('node:child_process');
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const dayAgo = new Date(Date.now() - DAY_MS);
      writeLock(file, { pid: holder.pid, host: os.hostname(), since: dayAgo.getTime(), purpose: 'consolidation' }, dayAgo);
      const before = fs.readFileSync(file, 'utf8');
      expect(tryAcquireLock(file, { purpose: 'contender', staleMs: 60_000, waitMs: 300 })).toBeUndefined();
      expect(fs.readFileSync(file, 'utf8')).toBe(before);
    } finally {
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
    }
    // The moment its process is gone, it is stale.
    expect(tryAcquireLock(file, { purpose: 'contender', staleMs: 60_000 })).toBeDefined();
  });

  it('a lock from another machine: taken over when its since and its mtime are both old; a time ahead of the clock only after being seen unchanged', () => {
    const elsewhere = { pid: 1, host: 'another-machine.invalid', purpose: 'sync' };
    const dayAgo = new Date(Date.now() - DAY_MS);
    const old = path.join(dir, 'old.lock');
    writeLock(old, { ...elsewhere, since: dayAgo.getTime() }, dayAgo);
    expect(tryAcquireLock(old, { purpose: 'x', staleMs: 60_000 })).toBeDefined();

    const ahead = path.join(dir, 'ahead.lock');
    writeLock(ahead, { ...elsewhere, since: Date.now() + DAY_MS });
    const mtimeAhead = path.join(dir, 'mtime-ahead.lock');
    writeLock(mtimeAhead, { ...elsewhere, since: dayAgo.getTime() }, new Date(Date.now() + DAY_MS));
    for (const file of [ahead, mtimeAhead]) {
      const firstSeen = Date.now();
      expect(tryAcquireLock(file, { purpose: 'x', staleMs: 300 }), file).toBeUndefined();
      expect(tryAcquireLock(file, { purpose: 'x', staleMs: 300, waitMs: 10_000 }), file).toBeDefined();
      expect(Date.now() - firstSeen).toBeGreaterThanOrEqual(300);
    }
  });

  it('an unreadable lock with an mtime ahead of the clock does not lock forever', () => {
    const file = path.join(dir, '.lock');
    const yearAhead = new Date(Date.now() + 365 * DAY_MS);
    fs.writeFileSync(file, 'not a lock');
    fs.utimesSync(file, yearAhead, yearAhead);
    const firstSeen = Date.now();
    expect(tryAcquireLock(file, { purpose: 'x' })).toBeUndefined();
    expect(tryAcquireLock(file, { purpose: 'x', waitMs: 15_000 })).toBeDefined();
    expect(Date.now() - firstSeen).toBeGreaterThanOrEqual(5_000);
  });

  it('the takeover guard of a live process is respected however old its mtime', () => {
    const file = path.join(dir, '.lock');
    writeLock(file, { pid: 2 ** 22 + 4242, host: os.hostname(), since: Date.now(), purpose: 'dead' });
    const hourAgo = new Date(Date.now() - 3_600_000);
    writeLock(`${file}.takeover`, { pid: process.pid, host: os.hostname(), since: hourAgo.getTime(), purpose: 'takeover' }, hourAgo);
    expect(tryAcquireLock(file, { purpose: 'x', waitMs: 300 })).toBeUndefined();
    expect(fs.existsSync(`${file}.takeover`)).toBe(true);
    expect(readLockInfo(file)?.purpose).toBe('dead');
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
    buildSync({
      entryPoints: [new URL('./file-lock.ts', import.meta.url).pathname],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: lockModule,
      logLevel: 'silent',
    });
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
      Array.from(
        { length: 6 },
        () =>
          new Promise<number>((resolve) =>
            guardChild(spawn(process.execPath, [worker], { stdio: 'ignore' })).on('exit', (code) => resolve(code ?? -1)),
          ),
      ),
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
