import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import { countJournalEntries } from '../../engine/context/context-files.js';
import { appendJournal, readJournal } from './journal.js';
import { searchJournal } from './journal-search.js';

const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function setup(now = '2026-03-10T12:00:00+08:00') {
  const home = makeTempHome({ KIOKU_NOW: now, TZ: 'Asia/Taipei' });
  homes.push(home);
  return { home, config: home.config() };
}

describe('appendJournal (DSH-3)', () => {
  it('appends one {ts, tags, text} JSON line per entry, counted by the SessionStart pointer', async () => {
    const { home, config } = setup();
    const first = await appendJournal(config, { text: ' 今天部署流程改了 ', tags: ['#部署', 'ci', 'ci', ' '] });
    expect(first.entry).toEqual({
      ts: expect.stringMatching(/^2026-03-\d\dT\d\d:00:00[+-]\d\d:\d\d$/),
      tags: ['部署', 'ci'],
      text: '今天部署流程改了',
    });
    // The clock's local time with its offset (the test process's time zone), the same instant as KIOKU_NOW.
    expect(Date.parse(first.entry.ts)).toBe(Date.parse('2026-03-10T12:00:00+08:00'));
    await appendJournal(home.config({ KIOKU_NOW: '2026-03-11T09:00:00+08:00' }), { text: '第二筆' });
    const lines = fs.readFileSync(config.paths.journalFile, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[0]!)).toEqual(first.entry);
    expect(JSON.parse(lines[1]!)).toMatchObject({ tags: [], text: '第二筆' });
    expect(Date.parse(JSON.parse(lines[1]!).ts)).toBe(Date.parse('2026-03-11T09:00:00+08:00'));
    expect(countJournalEntries(config.paths.journalFile)).toBe(2);
    expect(fs.existsSync(`${config.paths.journalFile}.lock`)).toBe(false);
  });

  it('starts a new line when a hand edit left the file without a final newline', async () => {
    const { config } = setup();
    fs.writeFileSync(config.paths.journalFile, JSON.stringify({ ts: '2026-01-01T00:00:00+08:00', tags: [], text: '手寫的' }));
    await appendJournal(config, { text: '新的' });
    expect(readJournal(config.paths.journalFile)).toMatchObject({ corrupt: 0, entries: [{ text: '手寫的' }, { text: '新的' }] });
  });

  it('masks secrets and converts Simplified, in text and tags, and says so', async () => {
    const { config } = setup();
    const ghp = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    const result = await appendJournal(config, { text: `部署用 ${ghp} 这个`, tags: ['头发'] });
    expect(result.changedByCleaning).toBe(true);
    expect(result.entry.text).not.toContain(ghp);
    expect(result.entry.text).toContain('這個');
    expect(result.entry.tags).toEqual(['頭髮']);
    expect(fs.readFileSync(config.paths.journalFile, 'utf8')).not.toContain(ghp);
  });

  it('refuses an empty entry', async () => {
    const { config } = setup();
    await expect(appendJournal(config, { text: '  ' })).rejects.toMatchObject({ code: 'BAD_USAGE' });
    expect(fs.existsSync(config.paths.journalFile)).toBe(false);
  });
});

describe('searchJournal (DSH-3)', () => {
  function writeJournal(file: string, lines: string[]) {
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
  }
  const entry = (ts: string, text: string, tags: string[] = []) => JSON.stringify({ ts, tags, text });

  it('matches Chinese substrings without spaces, newest first, skipping and counting corrupt lines', async () => {
    const { config } = setup();
    writeJournal(config.paths.journalFile, [
      entry('2026-03-01T10:00:00+08:00', '第一次部署流程整理', ['部署']),
      '{not json',
      entry('2026-03-05T10:00:00+08:00', '咖啡機壞了'),
      JSON.stringify({ ts: '2026-03-06T10:00:00+08:00', tags: [] }),
      entry('2026-03-09T10:00:00+08:00', '部署流程改成先跑 CI', ['部署', 'CI']),
      '',
    ]);
    const result = await searchJournal(config.paths.journalFile, { query: '部署流程' });
    expect(result.entries.map((e) => e.text)).toEqual(['部署流程改成先跑 CI', '第一次部署流程整理']);
    expect(result).toMatchObject({ matched: 2, total: 3, corrupt: 2, corruptLines: [2, 4] });
  });

  it('ignores width and case, finds Traditional from Simplified, and needs every term', async () => {
    const { config } = setup();
    writeJournal(config.paths.journalFile, [
      entry('2026-03-01T10:00:00+08:00', '用 ＧｉｔＨｕｂ Actions 跑測試'),
      entry('2026-03-02T10:00:00+08:00', '頭髮剪短了'),
    ]);
    const texts = async (query: string) => (await searchJournal(config.paths.journalFile, { query })).entries.map((e) => e.text);
    expect(await texts('github')).toEqual(['用 ＧｉｔＨｕｂ Actions 跑測試']);
    expect(await texts('ＡＣＴＩＯＮＳ')).toHaveLength(1);
    expect(await texts('头发')).toEqual(['頭髮剪短了']);
    expect(await texts('github 測試')).toHaveLength(1);
    expect(await texts('github 頭髮')).toEqual([]);
  });

  it('filters by tag (# and case ignored), alone or with a query, and limits newest first', async () => {
    const { config } = setup();
    writeJournal(config.paths.journalFile, [
      entry('2026-03-01T10:00:00+08:00', '甲', ['CI']),
      entry('2026-03-03T10:00:00+08:00', '乙', ['ci', '部署']),
      entry('2026-03-02T10:00:00+08:00', '丙', ['部署']),
    ]);
    const byTag = await searchJournal(config.paths.journalFile, { tag: '#ci' });
    expect(byTag.entries.map((e) => e.text)).toEqual(['乙', '甲']);
    expect((await searchJournal(config.paths.journalFile, { tag: '部署', query: '丙' })).entries.map((e) => e.text)).toEqual(['丙']);
    // A query also matches tags: 「ci」 finds the entries tagged CI even where the text does not say it.
    expect((await searchJournal(config.paths.journalFile, { query: 'ci' })).entries.map((e) => e.text)).toEqual(['乙', '甲']);
    const newest = await searchJournal(config.paths.journalFile, { limit: 2 });
    expect(newest.entries.map((e) => e.text)).toEqual(['乙', '丙']);
    expect(newest.matched).toBe(3);
  });

  it('an empty or missing journal is no error', async () => {
    const { config } = setup();
    expect(await searchJournal(config.paths.journalFile, { query: '任何' })).toMatchObject({
      entries: [],
      matched: 0,
      total: 0,
      corrupt: 0,
    });
  });
});

describe('entry times (issue 11)', () => {
  const at = Date.UTC(2026, 2, 10, 4, 5, 6);
  const local = formatLocalIso(new Date(at));

  it('reads epoch ms, epoch seconds and UTC text as the same instant in local ISO, like every time Kioku writes', () => {
    const { config } = setup();
    const lines = [
      { ts: at, tags: [], text: 'epoch ms' },
      { ts: at / 1000, tags: [], text: 'epoch s' },
      { ts: String(at), tags: [], text: 'epoch ms as text' },
      { ts: new Date(at).toISOString(), tags: [], text: 'UTC text' },
      { ts: '2026/03/10 12:05:06', tags: [], text: 'seed style, local' },
      { ts: '上週某天', tags: [], text: 'no date' },
      { tags: [], text: 'no ts' },
    ];
    fs.writeFileSync(config.paths.journalFile, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const ts = Object.fromEntries(readJournal(config.paths.journalFile).entries.map((entry) => [entry.text, entry.ts]));
    expect(ts).toEqual({
      'epoch ms': local,
      'epoch s': local,
      'epoch ms as text': local,
      'UTC text': local,
      'seed style, local': formatLocalIso(new Date(2026, 2, 10, 12, 5, 6)),
      'no date': '上週某天',
      'no ts': '',
    });
    expect(local).toMatch(/^2026-03-\d\dT\d\d:05:06[+-]\d\d:\d\d$/);
  });

  it('sorts numeric and written times together, newest first', async () => {
    const { config } = setup();
    const lines = [
      { ts: at + 60_000, tags: [], text: 'one minute later (ms)' },
      { ts: formatLocalIso(new Date(at + 120_000)), tags: [], text: 'two minutes later (Kioku)' },
      { ts: Math.floor(at / 1000) + 180, tags: [], text: 'three minutes later (s)' },
      { ts: new Date(at).toISOString(), tags: [], text: 'at (UTC text)' },
    ];
    fs.writeFileSync(config.paths.journalFile, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const found = await searchJournal(config.paths.journalFile);
    expect(found.entries.map((e) => e.text)).toEqual([
      'three minutes later (s)',
      'two minutes later (Kioku)',
      'one minute later (ms)',
      'at (UTC text)',
    ]);
  });
});
