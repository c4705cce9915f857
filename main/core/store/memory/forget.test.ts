import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeMemoryFixture } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, snapshotTree, type TempHome } from '../../../../test/helpers/temp-home.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { queuedBytes, queueReplays } from '../index/replay-queue.js';
import { forgetMemories } from './forget.js';
import { readMemoryState } from './memory-state.js';

const ROLE = 'TESTER01';
const NOW = Date.parse('2026-12-01T12:00:00+08:00');
const DAY = 24 * 60 * 60 * 1000;
/** An ISO time `days` (may be fractional) before NOW. */
const ago = (days: number) => new Date(NOW - days * DAY).toISOString();

let home: TempHome;
beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: new Date(NOW).toISOString() });
});
afterEach(() => home.cleanup());

/** A memory that would be forgotten if only its age allowed it. */
function faded(category: string, id: string, days: number, fields: Record<string, unknown> = {}): string {
  return writeMemoryFixture(home.memoryHome, ROLE, category, id, {
    summary: id,
    priority: 1,
    hits: 0,
    memory_type: 'semantic',
    updated: ago(days),
    ...fields,
  });
}

const forget = (dryRun = false) => forgetMemories(home.config(), ROLE, { dryRun });
const forgottenIds = (dryRun = false) =>
  forget(dryRun)
    .forgotten.map((entry) => entry.id)
    .sort();

describe('the forgetting table (seed 000, FORGET-1)', () => {
  it.each([
    ['daily', 'semantic', 14],
    ['daily', 'episodic', 7],
    ['other', 'semantic', 7],
    ['other', 'episodic', 4],
  ])('%s/%s goes at %i days, not a moment before', (category, type, limit) => {
    faded(category, 'just-young', limit - 1 / 24 / 60, { memory_type: type });
    faded(category, 'day-before', limit - 1, { memory_type: type });
    faded(category, 'at-limit', limit, { memory_type: type });
    expect(forgottenIds()).toEqual(['at-limit']);
  });

  it('never forgets the exempt ones, however old', () => {
    for (const type of ['rule', 'preference', 'procedural', 'emotional']) faded('daily', `type-${type}`, 90, { memory_type: type });
    faded('daily', 'warm', 90, { relevance: ['explicit', 'emotional'] });
    faded('daily', 'linked', 90, { links: ['20261101-000000-aaaaaa'] });
    faded('daily', 'hits-2', 90, { hits: 2 });
    faded('daily', 'priority-3', 90, { priority: 3 });
    faded('other', 'other-warm-episodic', 90, { memory_type: 'episodic', relevance: 'emotional' });
    for (const category of ['important', 'interest', 'news', 'skill', 'inbox']) faded(category, `in-${category}`, 90);
    faded('daily', 'hits-1', 90, { hits: 1 });
    expect(forgottenIds()).toEqual(['hits-1']);
  });

  it('forgets expired date memories first, in any category and of any type', () => {
    faded('daily', 'old-daily', 30);
    faded('important', 'expired-rule', 0, { memory_type: 'rule', priority: 5, hits: 9, expires: '2026-11-29' });
    faded('skill', 'expired-time', 0, { memory_type: 'procedural', expires: '2026-12-01T11:00:00+08:00' });
    faded('important', 'condition-text', 400, { priority: 1, expires: '這個 PR 合併後失效' });
    // A seed-era session grant (no session id): its session ended with the local day it was created in.
    faded('important', 'old-session', 2, { memory_type: 'preference', priority: 5, expires: '本工作階段' });
    faded('important', 'session-today', 0, { memory_type: 'preference', priority: 5, expires: '本工作階段' });
    faded('daily', 'condition-pr', 1, { expires: 'PR 合併後失效' });
    faded('important', 'later-today', 0, { expires: '2026-12-01T23:00:00+08:00' });
    faded('important', 'next-week', 0, { expires: '2026-12-08' });
    const result = forget();
    expect(result.forgotten.map((entry) => entry.id).sort()).toEqual(['expired-rule', 'expired-time', 'old-daily', 'old-session'].sort());
    expect(result.forgotten.at(-1)?.id).toBe('old-daily');
    expect(result.forgotten[0]?.reason).toMatch(/^expired/);
  });
});

describe('archiving (FORGET-3: nothing is destroyed)', () => {
  it('gzips the original bytes into archive/forgotten/ and removes the file', () => {
    const file = faded('daily', 'to-archive', 30);
    const original = fs.readFileSync(file);
    const [entry] = forget().forgotten;
    expect(entry?.archive).toBe(path.join(home.memoryHome, ROLE, 'archive', 'forgotten', 'to-archive.md.gz'));
    expect(fs.existsSync(file)).toBe(false);
    expect(zlib.gunzipSync(fs.readFileSync(entry!.archive!)).equals(original)).toBe(true);
  });

  it('never overwrites an earlier archive of the same id', () => {
    const dir = path.join(home.memoryHome, ROLE, 'archive', 'forgotten');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'same-id.md.gz'), 'earlier');
    faded('other', 'same-id', 30);
    const [entry] = forget().forgotten;
    expect(path.basename(entry!.archive!)).toBe('same-id-2.md.gz');
    expect(fs.readFileSync(path.join(dir, 'same-id.md.gz'), 'utf8')).toBe('earlier');
  });

  it('records last_forget in state.json', () => {
    forget();
    expect(new Date(readMemoryState(home.memoryHome, ROLE).state.last_forget!).getTime()).toBe(NOW);
  });
});

describe('dry run (FORGET-2)', () => {
  it('lists the same memories and changes nothing', () => {
    faded('daily', 'would-go', 30);
    faded('daily', 'stays', 1);
    const before = snapshotTree(home.memoryHome);
    const preview = forget(true);
    expect(preview).toMatchObject({ role: ROLE, dryRun: true, forgotten: [{ id: 'would-go', category: 'daily' }] });
    expect(preview.forgotten[0]?.archive).toBeUndefined();
    expect(snapshotTree(home.memoryHome)).toEqual(before);
    expect(forgottenIds()).toEqual(['would-go']);
  });
});

describe('recall hits still queued (issue 17, replay-queue.ts)', () => {
  it('count: a memory recalled since (hits 1 → 2) is neither listed nor forgotten, and its hits reach the file', () => {
    const recalled = faded('daily', 'recalled', 30, { hits: 1 });
    faded('daily', 'untouched', 30, { hits: 1 });
    const at = formatLocalIso(new Date(NOW));
    queueReplays(home.memoryHome, ROLE, at, [{ path: recalled, category: 'daily', mtimeMs: fs.statSync(recalled).mtimeMs }]);
    expect(forgottenIds(true)).toEqual(['untouched']);
    expect(fs.readFileSync(recalled, 'utf8')).toMatch(/^hits: 1$/m); // a dry run writes nothing
    expect(forgottenIds()).toEqual(['untouched']);
    expect(parseFrontmatter(fs.readFileSync(recalled, 'utf8')).data).toMatchObject({ hits: 2, last_replayed: at });
    expect(queuedBytes(home.memoryHome, ROLE)).toBe(0);
  });
});
