import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readQueue, readQueueFor } from './replay-queue-reader.js';

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

describe('reading the queue for a few files (a recall’s hits)', () => {
  /** A queue as recalls, applies and crashes leave it: hits, done lines, garbage, a cut last line. */
  function randomQueue(seed: number, names: readonly string[]): string {
    let state = seed;
    const next = (n: number) => ((state = (state * 1103515245 + 12345) % 2147483648), state % n);
    let text = '';
    for (let i = 0; i < 40; i += 1) {
      const kind = next(10);
      if (kind === 0) text += `${JSON.stringify({ done: rel(names[next(names.length)]!) })}\n`;
      else if (kind === 1) text += '{"at":"broken\n';
      else if (kind === 2)
        text += `${JSON.stringify({ at: String(i), hits: [[rel(names[next(names.length)]!), 'daily', 1]] })}\n`; // wrong folder
      else text += line(String(i).padStart(2, '0'), ...new Set(Array.from({ length: 1 + next(4) }, () => names[next(names.length)]!)));
    }
    return next(2) ? text : text.slice(0, -7); // sometimes a last line cut short, without its newline
  }

  it('gives what a whole read gives for those files, whatever the queue holds', () => {
    const names = ['coffee', 'tea', 'milk', 'water', '咖啡', 'quote"d', 'back\\slash'];
    let found = 0;
    for (let seed = 1; seed <= 60; seed += 1) {
      // A file of its own per queue: readQueue takes a same-headed longer file for the one it read, appended to.
      const queue = path.join(dir, `${seed}.jsonl`);
      fs.writeFileSync(queue, randomQueue(seed, names));
      const whole = readQueue(queue, ROLE);
      const asked = [rel(names[seed % names.length]!), rel(names[(seed * 3) % names.length]!), rel('never-queued')];
      const expected = [...whole].filter(([name]) => asked.includes(name)).sort();
      expect([...readQueueFor(queue, ROLE, asked)].sort(), `seed ${seed}`).toEqual(expected);
      if (expected.length) found += 1;
    }
    expect(found).toBeGreaterThan(20); // not a comparison of empty maps: many queues hold files asked about
  });

  it('is empty without a queue, and leaves what readQueue keeps alone', () => {
    expect(readQueueFor(path.join(dir, 'none.jsonl'), ROLE, [rel('coffee')]).size).toBe(0);
    fs.writeFileSync(file, line('09', 'coffee'));
    expect(summary(readQueueFor(file, ROLE, [rel('coffee')]))).toEqual([[rel('coffee'), 1, '09']]);
    fs.appendFileSync(file, line('10', 'coffee'));
    expect(summary(readQueue(file, ROLE))).toEqual([[rel('coffee'), 2, '10']]);
  });
});
