import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RACY_MS, fileStamp, settledFileStamp } from './file-stamp.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-stamp-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('fileStamp', () => {
  it('is undefined for a missing file and moves with every change', () => {
    const file = path.join(dir, 'a.txt');
    expect(fileStamp(file)).toBeUndefined();
    fs.writeFileSync(file, '一');
    const first = fileStamp(file);
    expect(first).toMatch(/^\d+:\d+:\d+:\d+$/);
    expect(fileStamp(file)).toBe(first);
    fs.appendFileSync(file, '二');
    expect(fileStamp(file)).not.toBe(first);
    // Replaced by rename with the same size and times: the inode tells.
    const stat = fs.statSync(file);
    const other = path.join(dir, 'b.txt');
    fs.writeFileSync(other, '三四');
    fs.utimesSync(other, stat.atime, stat.mtime);
    const before = fileStamp(file);
    fs.renameSync(other, file);
    expect(fileStamp(file)).not.toBe(before);
  });
});

describe('settledFileStamp', () => {
  it('gives no stamp for a file changed within the racy window, the stamp once it is past', () => {
    const file = path.join(dir, 'a.txt');
    expect(settledFileStamp(file)).toBeUndefined();
    fs.writeFileSync(file, 'x');
    expect(settledFileStamp(file)).toBeUndefined();
    // The change time cannot be set back: "later" is the clock moved on instead.
    const later = Date.now() + RACY_MS + 1_000;
    expect(settledFileStamp(file, later)).toBe(fileStamp(file));
    // An old modification time written now: the change time is still new, so not settled.
    fs.utimesSync(file, new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(settledFileStamp(file)).toBeUndefined();
  });
});
