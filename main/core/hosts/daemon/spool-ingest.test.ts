import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookCall, SpoolRecord } from '../../../../common/hook-protocol.js';
import { silentLogger } from '../../platform/config/log.js';
import { SPOOL_FAILED, SPOOL_PROCESSING, isSpoolFileName, spoolFileName, writeSpoolRecord } from '../../platform/ipc/spool-writer.js';
import { createCaptureQueue } from './capture-queue.js';
import { countSpoolPending, ingestSpool } from './spool-ingest.js';

const call = (eventId: string): HookCall => ({
  eventId,
  assistant: 'gemini',
  event: 'pre-compact',
  payload: { n: eventId },
  env: { ROLE_NAME: 'X' },
});

describe('spool', () => {
  const dirs: string[] = [];
  const spoolDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-spool-'));
    dirs.push(dir);
    return path.join(dir, 'spool');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names files so that they sort in arrival order', () => {
    const names = Array.from({ length: 200 }, () => spoolFileName());
    expect([...names].sort()).toEqual(names);
    expect(new Set(names).size).toBe(200);
    expect(names.every(isSpoolFileName)).toBe(true);
    // Wall-clock first: a file from before a reboot (bigger monotonic value) still sorts first.
    expect(spoolFileName(1_000, 9_999_999n) < spoolFileName(1_001, 5n)).toBe(true);
    expect(isSpoolFileName('.x.json.123-ab.tmp')).toBe(false);
  });

  it('writes private, complete records and ingests them once, in order', async () => {
    const dir = spoolDir();
    const files = ['a', 'b', 'c', 'd'].map((id) => writeSpoolRecord(dir, call(id), 'hook', new Date('2026-03-01T00:00:00Z')));
    expect(fs.statSync(files[0]!).mode & 0o777).toBe(0o600);
    expect(countSpoolPending(dir)).toBe(4);
    const seen: SpoolRecord[] = [];
    expect(await ingestSpool(dir, (record) => void seen.push(record))).toEqual({ handled: 4, failed: 0 });
    expect(seen.map((r) => r.eventId)).toEqual(['a', 'b', 'c', 'd']);
    expect(seen[0]).toMatchObject({
      v: 1,
      assistant: 'gemini',
      event: 'pre-compact',
      payload: { n: 'a' },
      env: { ROLE_NAME: 'X' },
      spooledAt: '2026-03-01T00:00:00.000Z',
      spooledBy: 'hook',
    });
    expect(await ingestSpool(dir, () => void seen.push(call('again') as SpoolRecord))).toEqual({ handled: 0, failed: 0 });
    expect(countSpoolPending(dir)).toBe(0);
  });

  it('handles what a crashed ingester left in processing/ first', async () => {
    const dir = spoolDir();
    const left = writeSpoolRecord(dir, call('claimed-before-crash'), 'daemon');
    writeSpoolRecord(dir, call('older-than-nothing'), 'hook');
    fs.mkdirSync(path.join(dir, SPOOL_PROCESSING), { recursive: true });
    fs.renameSync(left, path.join(dir, SPOOL_PROCESSING, path.basename(left)));
    const seen: string[] = [];
    await ingestSpool(dir, (record) => void seen.push(record.eventId));
    expect(seen).toEqual(['claimed-before-crash', 'older-than-nothing']);
    expect(fs.readdirSync(path.join(dir, SPOOL_PROCESSING))).toEqual([]);
  });

  it('moves events whose handler throws to failed/, logs why, and goes on', async () => {
    const dir = spoolDir();
    for (const id of ['ok-1', 'bad', 'ok-2']) writeSpoolRecord(dir, call(id), 'hook');
    const errors: string[] = [];
    const logger = { ...silentLogger, error: (_stage: string, message: string) => void errors.push(message) };
    const seen: string[] = [];
    const result = await ingestSpool(
      dir,
      (record) => {
        if (record.eventId === 'bad') throw new Error('disk on fire');
        seen.push(record.eventId);
      },
      { logger },
    );
    expect(result).toEqual({ handled: 2, failed: 1 });
    expect(seen).toEqual(['ok-1', 'ok-2']);
    expect(fs.readdirSync(path.join(dir, SPOOL_FAILED))).toHaveLength(1);
    expect(errors[0]).toMatch(/handling pre-compact bad from .* failed: disk on fire; moved it to .*failed.* to retry/);
  });

  it('capture queue: one event at a time, flush waits for what is there now', async () => {
    const dir = spoolDir();
    let active = 0;
    let maxActive = 0;
    const seen: string[] = [];
    const queue = createCaptureQueue({
      spoolDir: dir,
      logger: silentLogger,
      pollMs: 60_000,
      handle: async (record) => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((resolve) => setImmediate(resolve));
        seen.push(record.eventId);
        active--;
      },
    });
    for (let i = 0; i < 5; i++) writeSpoolRecord(dir, call(`e${i}`), 'daemon');
    const flushed = queue.flush();
    writeSpoolRecord(dir, call('e5'), 'daemon');
    queue.kick();
    await flushed;
    expect(seen.slice(0, 5)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
    await queue.idle();
    expect(seen).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5']);
    expect(maxActive).toBe(1);
    expect(queue.stats()).toEqual({ busy: false, handled: 6, failed: 0 });
    await queue.stop();
    expect(await queue.flush()).toBeUndefined();
  });

  it('runs its after-drain work once per burst, while still busy, and not for a pass that handled nothing', async () => {
    const dir = spoolDir();
    const drained: Array<{ seen: number; busy: boolean }> = [];
    let seen = 0;
    const queue = createCaptureQueue({
      spoolDir: dir,
      logger: silentLogger,
      pollMs: 60_000,
      handle: async () => {
        seen++;
        await new Promise((resolve) => setImmediate(resolve));
      },
      afterDrained: () => drained.push({ seen, busy: queue.stats().busy }),
    });
    for (let i = 0; i < 8; i++) writeSpoolRecord(dir, call(`b${i}`), 'daemon');
    queue.kick();
    queue.kick();
    await queue.idle();
    expect(drained).toEqual([{ seen: 8, busy: true }]);
    await queue.flush(); // an empty pass
    expect(drained).toHaveLength(1);
    writeSpoolRecord(dir, call('b8'), 'daemon');
    await queue.flush();
    expect(drained).toEqual([
      { seen: 8, busy: true },
      { seen: 9, busy: true },
    ]);
    await queue.stop();
  });
});

describe('two ingesters (issue 13: kioku sleep drains the spool while a daemon may start)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const spoolDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-spool-'));
    dirs.push(dir);
    return path.join(dir, 'spool');
  };
  /** An ingester stopped inside its first event, until `open()`. */
  const heldIngester = (dir: string) => {
    let open: () => void = () => undefined;
    let entered: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const seen: string[] = [];
    const done = ingestSpool(dir, async (record) => {
      if (seen.length === 0) {
        entered();
        await gate;
      }
      seen.push(record.eventId);
    });
    return { open, inside, seen, done };
  };

  it('a second pass finds the lock held and takes over nothing in processing/', async () => {
    const dir = spoolDir();
    for (const id of ['a', 'b', 'c']) writeSpoolRecord(dir, call(id), 'hook');
    const first = heldIngester(dir);
    await first.inside; // event a is in processing/, in hand
    const seen: string[] = [];
    const second = await ingestSpool(dir, (record) => void seen.push(record.eventId));
    expect(second).toMatchObject({ handled: 0, failed: 0, busy: { pid: process.pid, purpose: 'spool ingest' } });
    expect(seen).toEqual([]);
    first.open();
    expect(await first.done).toEqual({ handled: 3, failed: 0 });
    expect(first.seen).toEqual(['a', 'b', 'c']);
    expect(await ingestSpool(dir, (record) => void seen.push(record.eventId))).toEqual({ handled: 0, failed: 0 });
    expect(seen).toEqual([]);
    expect(countSpoolPending(dir)).toBe(0);
  });

  it('a daemon starting meanwhile: its first flush waits for that pass, then handles only what came after', async () => {
    const dir = spoolDir();
    for (const id of ['a', 'b']) writeSpoolRecord(dir, call(id), 'hook');
    const first = heldIngester(dir);
    await first.inside;
    const seen: string[] = [];
    // Whichever comes first: the queue handles an event (a's, in hand: wrong) or says it waits.
    let firstMove: (what: string) => void = () => undefined;
    const moved = new Promise<string>((resolve) => (firstMove = resolve));
    const logger = { ...silentLogger, info: (_stage: string, message: string) => firstMove(message) };
    const queue = createCaptureQueue({
      spoolDir: dir,
      logger,
      pollMs: 60_000,
      handle: (record) => {
        firstMove(`handled ${record.eventId}`);
        seen.push(record.eventId);
      },
    });
    let flushed = false;
    const flush = queue.flush().then(() => (flushed = true));
    writeSpoolRecord(dir, call('c'), 'daemon');
    expect(await moved).toMatch(new RegExp(`^process ${process.pid} \\(spool ingest\\) is ingesting .*; waiting for its pass to end$`));
    expect(flushed).toBe(false);
    first.open();
    await first.done;
    await flush;
    await queue.idle();
    expect([...first.seen, ...seen].sort()).toEqual(['a', 'b', 'c']);
    expect(first.seen.filter((id) => seen.includes(id))).toEqual([]);
    await queue.stop();
  });
});
