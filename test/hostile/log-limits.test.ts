import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../main/core/platform/config/clock.js';
import { createLogger } from '../../main/core/platform/config/log.js';

/**
 * Issue 14, item 5: a log cannot fill the disk or carry a payload. Every process logs through
 * createLogger (the daemon to kioku.log, each hook run to hooks.log), so these hold for all.
 */
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-log-limits-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const clock = fixedClock('2026-03-10T14:00:00+08:00');
/** The limits docs/architecture.md states (§Logs): a line keeps a short start, files rotate at 2 MiB, 2 old ones kept. */
const SHORT_LINE_CHARS = 4_000;
const LOG_ROTATE_BYTES = 2 * 1024 * 1024;
const LOG_KEEP_OLD = 2;

describe('the log', () => {
  it('keeps only the start of a huge message', () => {
    const file = path.join(dir, 'logs', 'kioku.log');
    createLogger({ clock, file }).warn('ipc', `rejected ${'x'.repeat(8 * 1024 * 1024)}`);
    const text = fs.readFileSync(file, 'utf8');
    expect(text.length).toBeLessThan(SHORT_LINE_CHARS);
    expect(text).toMatch(/^\[.*\]\[ipc\]\[WARN\]: rejected x+… \(\d+ more characters left out\)\n$/);
  });

  it(`rotates at its size cap and keeps ${LOG_KEEP_OLD} old files, appended to by several writers`, () => {
    const file = path.join(dir, 'logs', 'hooks.log');
    // Two loggers on one file, like the hooks of two assistants running at once.
    const writers = [createLogger({ clock, file }), createLogger({ clock, file })];
    const line = 'y'.repeat(1_500);
    const lines = Math.ceil(((LOG_KEEP_OLD + 2) * LOG_ROTATE_BYTES) / line.length);
    for (let n = 0; n < lines; n += 1) writers[n % 2]!.info('hook', `${n} ${line}`);
    const names = fs.readdirSync(path.dirname(file)).sort();
    expect(names).toEqual(['hooks.log', ...Array.from({ length: LOG_KEEP_OLD }, (_, i) => `hooks.log.${i + 1}`)]);
    for (const name of names) expect(fs.statSync(path.join(dir, 'logs', name)).size).toBeLessThanOrEqual(LOG_ROTATE_BYTES + 2_000);
    // The newest line is in the current file, whole; rotation split no line.
    expect(fs.readFileSync(file, 'utf8')).toContain(`: ${lines - 1} ${line}\n`);
    for (const name of names)
      for (const text of fs
        .readFileSync(path.join(dir, 'logs', name), 'utf8')
        .trimEnd()
        .split('\n'))
        expect(text).toMatch(/^\[.*\]\[hook\]\[INFO\]: \d+ y{1500}$/);
    // New log files are the user's alone: they quote prompts and paths.
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});
