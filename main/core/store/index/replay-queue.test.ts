import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { fixedClock, formatLocalIso } from '../../platform/config/clock.js';
import { tryAcquireLock } from '../../platform/fs/file-lock.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { memoryLockFile } from '../memory/memory-layout.js';
import { applyReplayQueue } from './apply-replay-queue.js';
import { openMemoryIndex, type MemoryIndex } from './memory-index.js';
import { prepareRecall } from './recall.js';
import { applyQueuedReplays, pendingReplays, queuedBytes, queueReplays, replayQueueFile, rolesWithQueuedReplays } from './replay-queue.js';

/** Recall's hits queued and applied later (issue 17: the write-back off the answer's path). */
let home: TempHome;
let coffee: string;
let tea: string;
const at = (hour: number) => formatLocalIso(new Date(2026, 2, 10, hour, 0, 0));
const target = (file: string) => ({ path: file, category: 'interest' as const, mtimeMs: fs.statSync(file).mtimeMs });
const front = (file: string) => parseFrontmatter(fs.readFileSync(file, 'utf8')).data;

beforeEach(() => {
  home = makeTempHome();
  coffee = writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '喜歡喝黑咖啡', hits: 2, strength: 60, mood_color: 'brown' });
  tea = writeMemory(home.memoryHome, 'interest', { id: 'tea', summary: '偶爾喝烏龍茶', hits: 0, strength: 96 });
});
afterEach(() => home.cleanup());

describe('the replay queue', () => {
  it('applies each file once with every queued replay: hits + n, strength + 8n up to 100, the last last_replayed', () => {
    queueReplays(home.memoryHome, ROLE, at(9), [target(coffee), target(tea)]);
    queueReplays(home.memoryHome, ROLE, at(10), [target(coffee)]);
    expect(queuedBytes(home.memoryHome, ROLE)).toBeGreaterThan(0);
    expect([...pendingReplays(home.memoryHome, ROLE)].map(([file, p]) => [file, p.times, p.at])).toEqual([
      [coffee, 2, at(10)],
      [tea, 1, at(9)],
    ]);
    expect(front(coffee)).toMatchObject({ hits: 2 }); // nothing written yet

    const outcome = applyQueuedReplays(home.memoryHome, ROLE);
    expect(outcome.status).toBe('applied');
    expect(front(coffee)).toMatchObject({ hits: 4, strength: 76, last_replayed: at(10), mood_color: 'brown' });
    expect(front(tea)).toMatchObject({ hits: 1, strength: 100, last_replayed: at(9) });
    expect(queuedBytes(home.memoryHome, ROLE)).toBe(0);
    expect(pendingReplays(home.memoryHome, ROLE).size).toBe(0);
    expect(applyQueuedReplays(home.memoryHome, ROLE)).toMatchObject({ status: 'applied', problems: [] });
    expect(front(coffee)).toMatchObject({ hits: 4 });
  });

  it('skips a line cut short, a line that is not JSON and a path outside the role', () => {
    const file = replayQueueFile(home.memoryHome, ROLE);
    queueReplays(home.memoryHome, ROLE, at(9), [target(coffee)]);
    fs.appendFileSync(file, 'not json\n');
    fs.appendFileSync(file, `${JSON.stringify({ at: at(9), hits: [[`${ROLE}/../OTHER/interest/x.md`, 'interest', 0]] })}\n`);
    fs.appendFileSync(file, `${JSON.stringify({ at: at(9), hits: [[`${ROLE}/secret/x.md`, 'secret', 0]] })}\n`);
    fs.appendFileSync(file, '{"at":"2026-03-10T11:00:00+08:00","hits":[["'); // a crash mid-append
    expect(applyQueuedReplays(home.memoryHome, ROLE)).toMatchObject({ status: 'applied', problems: [] });
    expect(front(coffee)).toMatchObject({ hits: 3, last_replayed: at(9) });
    expect(front(tea)).toMatchObject({ hits: 0 });
  });

  it('resumes an apply cut short without counting a finished file twice, then applies what was queued since', () => {
    const file = replayQueueFile(home.memoryHome, ROLE);
    queueReplays(home.memoryHome, ROLE, at(9), [target(coffee), target(tea)]);
    fs.renameSync(file, `${file}.applying`);
    fs.appendFileSync(`${file}.applying`, `${JSON.stringify({ done: `${ROLE}/interest/coffee.md` })}\n`); // coffee was written
    queueReplays(home.memoryHome, ROLE, at(10), [target(tea)]);
    expect(pendingReplays(home.memoryHome, ROLE).get(tea)?.times).toBe(2);
    expect(pendingReplays(home.memoryHome, ROLE).has(coffee)).toBe(false);

    applyQueuedReplays(home.memoryHome, ROLE);
    expect(front(coffee)).toMatchObject({ hits: 2 });
    expect(front(tea)).toMatchObject({ hits: 2, last_replayed: at(10) });
    expect(fs.existsSync(`${file}.applying`)).toBe(false);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('names a file that is gone and still applies the others', () => {
    queueReplays(home.memoryHome, ROLE, at(9), [target(coffee), target(tea)]);
    fs.rmSync(coffee);
    const outcome = applyQueuedReplays(home.memoryHome, ROLE);
    expect(outcome).toMatchObject({
      status: 'applied',
      problems: [{ path: coffee, message: expect.stringContaining('the file is gone') }],
    });
    expect(front(tea)).toMatchObject({ hits: 1 });
    expect(queuedBytes(home.memoryHome, ROLE)).toBe(0);
  });

  it('leaves the queue alone while another process holds the memory lock', () => {
    queueReplays(home.memoryHome, ROLE, at(9), [target(coffee)]);
    const lock = tryAcquireLock(memoryLockFile(home.memoryHome, ROLE), { purpose: 'consolidation (test)' })!;
    try {
      expect(applyQueuedReplays(home.memoryHome, ROLE, { waitMs: 0 })).toMatchObject({ status: 'locked' });
      expect(front(coffee)).toMatchObject({ hits: 2 });
      // The holder applies it under its own lock (a sleep does, consolidate-role.ts).
      expect(applyQueuedReplays(home.memoryHome, ROLE, { lock })).toMatchObject({ status: 'applied' });
      expect(front(coffee)).toMatchObject({ hits: 3 });
      expect(fs.existsSync(memoryLockFile(home.memoryHome, ROLE))).toBe(true); // the holder's lock is kept
    } finally {
      lock.release();
    }
  });

  it('lists the roles with replays queued, and no other file there', () => {
    queueReplays(home.memoryHome, ROLE, at(9), [target(coffee)]);
    const dir = path.dirname(replayQueueFile(home.memoryHome, ROLE));
    fs.writeFileSync(path.join(dir, '..bad.jsonl'), '');
    fs.writeFileSync(path.join(dir, 'notes.txt'), '');
    expect(rolesWithQueuedReplays(home.memoryHome)).toEqual([ROLE]);
  });
});

describe('recall with its hits queued', () => {
  let index: MemoryIndex;
  beforeEach(() => {
    index = openMemoryIndex(home.config().paths);
  });
  afterEach(() => index.close());

  const recallQueued = (hour: number) => {
    const prepared = prepareRecall(index, {
      role: ROLE,
      query: '咖啡',
      clock: fixedClock(new Date(2026, 2, 10, hour)),
      writeBack: 'queue',
    });
    expect(prepared.writeBack()).toEqual([]);
    return prepared.result;
  };

  it('shows the counts the files will hold, writes none of them, and the index learns them when the queue is applied', () => {
    const before = fs.readFileSync(coffee, 'utf8');
    expect(recallQueued(9)).toMatchObject({
      writeBack: 'written',
      memories: [{ id: 'coffee', hits: 3, strength: 68, last_replayed: at(9) }],
    });
    expect(recallQueued(10).memories).toMatchObject([{ hits: 4, strength: 76, last_replayed: at(10) }]);
    expect(fs.readFileSync(coffee, 'utf8')).toBe(before);

    expect(applyReplayQueue(index, ROLE)).toEqual([]);
    expect(front(coffee)).toMatchObject({ hits: 4, strength: 76, last_replayed: at(10) });
    expect(recallQueued(11).memories).toMatchObject([{ hits: 5, strength: 84, last_replayed: at(11) }]);
  });

  it('is counted even while a sleep holds the memory lock (no wait, no "not counted")', () => {
    const lock = tryAcquireLock(memoryLockFile(home.memoryHome, ROLE), { purpose: 'consolidation (test)' })!;
    try {
      expect(recallQueued(9)).toMatchObject({ writeBack: 'written', memories: [{ hits: 3 }] });
      expect(applyReplayQueue(index, ROLE)).toEqual([]); // locked: left for the sleep
      expect(queuedBytes(home.memoryHome, ROLE)).toBeGreaterThan(0);
    } finally {
      lock.release();
    }
  });
});
