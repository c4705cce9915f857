import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readQueue } from './replay-queue-reader.js';

/** The queue read again and again (the daemon before each recall): only what was appended since, same answer. */
const ROLE = 'ENGINEER01';
let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-queue-'));
  file = path.join(dir, `${ROLE}.jsonl`);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const rel = (name: string) => `${ROLE}/interest/${name}.md`;
const line = (at: string, ...names: string[]) => `${JSON.stringify({ at, hits: names.map((name) => [rel(name), 'interest', 1]) })}\n`;
const summary = (read: ReturnType<typeof readQueue>) => [...read].map(([file, p]) => [file, p.times, p.at]).sort();

describe('reading the replay queue again', () => {
  it('adds what was appended since the last read, as a whole read would', () => {
    fs.writeFileSync(file, line('09', 'coffee', 'tea'));
    expect(summary(readQueue(file, ROLE))).toEqual([
      [rel('coffee'), 1, '09'],
      [rel('tea'), 1, '09'],
    ]);
    fs.appendFileSync(file, line('10', 'coffee'));
    fs.appendFileSync(file, `${JSON.stringify({ done: rel('tea') })}\n`);
    expect(summary(readQueue(file, ROLE))).toEqual([[rel('coffee'), 2, '10']]);
    expect(summary(readQueue(file, ROLE))).toEqual([[rel('coffee'), 2, '10']]); // nothing new: the same
  });

  it('counts a line still being written once: now, and not again when its newline comes', () => {
    fs.writeFileSync(file, line('09', 'coffee'));
    readQueue(file, ROLE);
    const next = line('10', 'coffee');
    fs.appendFileSync(file, next.slice(0, -1));
    expect(summary(readQueue(file, ROLE))).toEqual([[rel('coffee'), 2, '10']]);
    fs.appendFileSync(file, '\n');
    expect(summary(readQueue(file, ROLE))).toEqual([[rel('coffee'), 2, '10']]);
    fs.appendFileSync(file, '{"at":"11","hi'); // cut short for good: skipped, as a whole read skips it
    fs.appendFileSync(file, `\n${line('12', 'tea')}`);
    expect(summary(readQueue(file, ROLE))).toEqual([
      [rel('coffee'), 2, '10'],
      [rel('tea'), 1, '12'],
    ]);
  });

  it('reads a queue whole again once it is another file: renamed aside and started anew, rewritten in place, or shorter', () => {
    fs.writeFileSync(file, line('09', 'coffee') + line('10', 'coffee'));
    expect(summary(readQueue(file, ROLE))).toEqual([[rel('coffee'), 2, '10']]);
    // Applied: renamed aside, and the next recall starts a new queue, here as long as the old one.
    fs.renameSync(file, `${file}.applying`);
    fs.writeFileSync(file, line('11', 'milk') + line('12', 'milk'));
    expect(summary(readQueue(file, ROLE))).toEqual([[rel('milk'), 2, '12']]);
    // The same inode rewritten longer, with other first bytes.
    fs.writeFileSync(file, line('13', 'water') + line('14', 'water') + line('15', 'water'));
    expect(summary(readQueue(file, ROLE))).toEqual([[rel('water'), 3, '15']]);
    fs.writeFileSync(file, line('16', 'soda'));
    expect(summary(readQueue(file, ROLE))).toEqual([[rel('soda'), 1, '16']]);
    fs.rmSync(file);
    expect(summary(readQueue(file, ROLE))).toEqual([]);
  });
});
