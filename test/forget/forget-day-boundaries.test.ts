import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forgetMemories, type ForgetResult } from '../../main/core/store/memory/forget.js';
import { bundleEntry } from '../helpers/bundle-entry.js';
import { fingerprints, writeMemoryFixture } from '../helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * FORGET-1/2/3 at the day boundaries of FORGET-1's table:
 *
 * | daily | ≥ 14 天（episodic 約 7 天）| hits ≤ 1 | priority ≤ 2 | 無 links，且非 rule／preference／procedural／emotional |
 * | other | ≥ 7 天（episodic 約 4 天） | hits ≤ 1 | priority ≤ 2 | 同上 |
 *
 * The memories keep their dates; the clock moves (KIOKU_NOW, through loadConfig's env and through
 * the real `kioku memory forget` process). Each forgotten memory must come back byte for byte
 * from archive/forgotten/<id>.md.gz.
 */
const ROLE = 'FORGET01';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** When every test memory was last updated. */
const T0 = Date.parse('2026-11-01T09:30:00+08:00');
const at = (ms: number) => new Date(ms).toISOString();

let home: TempHome;
beforeEach(() => {
  home = makeTempHome();
});
afterEach(() => home.cleanup());

/** A memory that only its age can protect: low priority, hits 0, no links, semantic. */
function memory(category: string, id: string, fields: Record<string, unknown> = {}): { file: string; bytes: Buffer } {
  const file = writeMemoryFixture(
    home.memoryHome,
    ROLE,
    category,
    id,
    { summary: `摘要 ${id}`, priority: 1, hits: 0, links: [], memory_type: 'semantic', created: at(T0), updated: at(T0), ...fields },
    `內容 ${id}\n第二行`,
  );
  return { file, bytes: fs.readFileSync(file) };
}

/** `forget` with the clock at `ms`, through loadConfig(env) exactly as every command gets it. */
const forgetAt = (ms: number, dryRun = false): ForgetResult => forgetMemories(home.config({ KIOKU_NOW: at(ms) }), ROLE, { dryRun });
const ids = (result: ForgetResult) => result.forgotten.map((entry) => entry.id);

function expectRecoverable(result: ForgetResult, originals: Record<string, Buffer>): void {
  for (const entry of result.forgotten) {
    expect(fs.existsSync(entry.path)).toBe(false);
    expect(entry.archive).toBe(path.join(home.memoryHome, ROLE, 'archive', 'forgotten', `${entry.id}.md.gz`));
    expect(zlib.gunzipSync(fs.readFileSync(entry.archive!)).equals(originals[entry.id]!)).toBe(true);
  }
}

describe('the table, at the minute', () => {
  it.each([
    ['daily', 'semantic', 14],
    ['daily', 'episodic', 7],
    ['other', 'semantic', 7],
    ['other', 'episodic', 4],
  ])('%s / %s: kept at %i days minus one minute, forgotten at exactly that many days', (category, type, days) => {
    const { bytes } = memory(category, 'edge', { memory_type: type });
    const kept = forgetAt(T0 + days * DAY - MINUTE);
    expect(ids(kept)).toEqual([]);
    expect(fs.readFileSync(path.join(home.memoryHome, ROLE, category, 'edge.md')).equals(bytes)).toBe(true);
    const gone = forgetAt(T0 + days * DAY);
    expect(ids(gone)).toEqual(['edge']);
    expect(gone.forgotten[0]?.reason).toContain(`not updated for ${days} days (limit ${days}${type === 'episodic' ? ', episodic' : ''})`);
    expectRecoverable(gone, { edge: bytes });
  });

  it('daily: 13 days 23:59 kept, 14 days forgotten (the seed: ≥ 14 天)', () => {
    memory('daily', 'walk');
    expect(ids(forgetAt(T0 + 13 * DAY + 23 * 60 * MINUTE + 59 * MINUTE))).toEqual([]);
    expect(ids(forgetAt(T0 + 14 * DAY))).toEqual(['walk']);
  });

  it('hits ≤ 1 and priority ≤ 2 still go; hits 2, priority 3 or a link keeps a memory, even at 400 days', () => {
    const originals: Record<string, Buffer> = {};
    for (const category of ['daily', 'other']) {
      originals[`${category}-hits-1`] = memory(category, `${category}-hits-1`, { hits: 1 }).bytes;
      originals[`${category}-priority-2`] = memory(category, `${category}-priority-2`, { priority: 2 }).bytes;
      memory(category, `${category}-hits-2`, { hits: 2 });
      memory(category, `${category}-priority-3`, { priority: 3 });
      memory(category, `${category}-linked`, { links: ['20261001-000000-abcdef'] });
    }
    const result = forgetAt(T0 + 400 * DAY);
    expect(ids(result).sort()).toEqual(['daily-hits-1', 'daily-priority-2', 'other-hits-1', 'other-priority-2']);
    expectRecoverable(result, originals);
  });

  it('rule, preference, procedural, emotional and warm memories are never forgotten, even at 400 days', () => {
    for (const category of ['daily', 'other']) {
      for (const type of ['rule', 'preference', 'procedural', 'emotional']) memory(category, `${category}-${type}`, { memory_type: type });
      memory(category, `${category}-warm`, { relevance: ['explicit', 'emotional'] });
      memory(category, `${category}-warm-episodic`, { memory_type: 'episodic', relevance: 'emotional' });
    }
    for (const category of ['inbox', 'important', 'interest', 'news', 'skill']) memory(category, `in-${category}`);
    const memoryFiles = () => {
      const { ['state.json']: _lastForget, ...files } = fingerprints(path.join(home.memoryHome, ROLE));
      return files;
    };
    const before = memoryFiles();
    expect(ids(forgetAt(T0 + 400 * DAY))).toEqual([]);
    expect(memoryFiles()).toEqual(before);
  });

  it('an expired date `expires` goes first, whatever its category, type, priority or hits', () => {
    const originals: Record<string, Buffer> = {};
    originals['old-daily'] = memory('daily', 'old-daily').bytes;
    const expiry = at(T0 + 20 * DAY);
    originals['expired-rule'] = memory('important', 'expired-rule', { memory_type: 'rule', priority: 5, hits: 9, expires: expiry }).bytes;
    originals['expired-inbox'] = memory('inbox', 'expired-inbox', { expires: expiry }).bytes;
    originals['expired-emotional'] = memory('skill', 'expired-emotional', {
      memory_type: 'emotional',
      links: ['x'],
      expires: expiry,
    }).bytes;
    memory('important', 'condition', { priority: 1, expires: 'PR 合併後失效' });
    // One minute before the expiry only the old daily one goes; at the expiry the expired ones go first.
    expect(ids(forgetAt(T0 + 20 * DAY - MINUTE, true))).toEqual(['old-daily']);
    const result = forgetAt(T0 + 20 * DAY);
    expect(ids(result)).toEqual(['expired-inbox', 'expired-rule', 'expired-emotional', 'old-daily']);
    expect(result.forgotten.slice(0, 3).every((entry) => entry.reason.startsWith('expired'))).toBe(true);
    expectRecoverable(result, originals);
  });
});

describe('`kioku memory forget` as a real process, the clock set by KIOKU_NOW', () => {
  let cli: string;
  beforeAll(() => {
    cli = bundleEntry('test/ipc/fixtures/kioku-cli.ts');
  });
  const kioku = (args: string[], now: string) => {
    const result = spawnSync(process.execPath, [cli, ...args], {
      env: { ...home.env, TZ: 'Asia/Taipei', KIOKU_NOW: now },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it('--dry-run lists exactly what goes and changes nothing (bytes and mtimes); the real run archives it recoverably', () => {
    // Seed-era local dates ("yyyy/MM/dd HH:mm:ss", Asia/Taipei) and a date-only expiry.
    const daily = memory('daily', 'seed-daily', { created: '2026/11/01 09:30:00', updated: '2026/11/01 09:30:00' });
    const other = memory('other', 'seed-other', {
      memory_type: 'episodic',
      created: '2026/11/10 09:30:00',
      updated: '2026/11/10 09:30:00',
    });
    const expired = memory('important', 'until-14th', { memory_type: 'rule', priority: 5, expires: '2026-11-14' });
    memory('daily', 'seed-emotional', { memory_type: 'emotional', updated: '2025/01/01 00:00:00' });
    const roleDir = path.join(home.memoryHome, ROLE);

    // 2026/11/14 09:29 local: the daily one is 12 d 23:59 old, the episodic other 3 d 23:59, the expiry still runs.
    const early = kioku(['memory', 'forget', '--role', ROLE, '--json'], '2026-11-14T09:29:00+08:00');
    expect(early.code).toBe(0);
    expect(JSON.parse(early.stdout)).toMatchObject({ role: ROLE, forgotten: [], dryRun: false });

    // 2026/11/15 09:30 local: the daily one is 14 days old, the other one 5 days, the expiry date is past.
    const now = '2026-11-15T09:30:00+08:00';
    const before = fingerprints(roleDir);
    const preview = kioku(['memory', 'forget', '--role', ROLE, '--dry-run', '--json'], now);
    expect(preview.code).toBe(0);
    const previewed = JSON.parse(preview.stdout) as ForgetResult;
    expect(previewed.dryRun).toBe(true);
    expect(previewed.forgotten.map((entry) => entry.id)).toEqual(['until-14th', 'seed-daily', 'seed-other']);
    expect(fingerprints(roleDir)).toEqual(before);
    expect(fs.existsSync(path.join(roleDir, 'archive'))).toBe(false);

    const real = kioku(['memory', 'forget', '--role', ROLE, '--json'], now);
    expect(real.code).toBe(0);
    const done = JSON.parse(real.stdout) as ForgetResult;
    expect(done.forgotten.map((entry) => entry.id)).toEqual(previewed.forgotten.map((entry) => entry.id));
    expectRecoverable(done, { 'seed-daily': daily.bytes, 'seed-other': other.bytes, 'until-14th': expired.bytes });
    expect(fs.existsSync(path.join(roleDir, 'daily', 'seed-emotional.md'))).toBe(true);

    // And back: `kioku memory restore` puts the original bytes where they were.
    const restored = kioku(['memory', 'restore', 'seed-daily', '--role', ROLE, '--json'], now);
    expect(restored.code).toBe(0);
    expect(fs.readFileSync(daily.file).equals(daily.bytes)).toBe(true);
    expect(restored.stderr).toMatch(/the next forget will archive it again/);
  });
});
