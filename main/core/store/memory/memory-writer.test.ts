import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { formatCompactDateTime, formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { loadRoleMemories } from './memory-layout.js';
import { prepareMemory, writeMemory } from './memory-writer.js';
import { rememberText } from '../../engine/capture/remember.js';
import { seedMemory } from './seed-memory.js';

const ROLE = 'TESTER01';
let home: TempHome;
let config: KiokuConfig;
beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T09:30:00+08:00' });
  config = home.config();
});
afterEach(() => home.cleanup());

const reload = (file: string) => loadRoleMemories(home.memoryHome, ROLE).memories.find((m) => m.path === file)!;

describe('writeMemory', () => {
  it('redacts and converts every text field before writing', async () => {
    const { memory, warnings } = await writeMemory(config, ROLE, {
      category: 'inbox',
      summary: '使用者说头发剪短了',
      body: '她的邮箱是 someone@example.com，token=abc123\n后来我们一起理发',
      tags: ['头发', '生活'],
      cues: ['理发'],
      expires: '这个 PR 合并以后',
      extra: { source: 'https://alice:pw123456@example.com/notes' },
    });
    const text = fs.readFileSync(memory.path, 'utf8');
    expect(text).not.toMatch(/someone@example\.com|abc123|pw123456/);
    expect(text).toContain('[REDACTED:email]');
    expect(memory.summary).toBe('使用者說頭髮剪短了');
    expect(memory.body).toBe('她的郵箱是 [REDACTED:email]，token=[REDACTED:secret]\n後來我們一起理髮');
    expect(memory.tags).toEqual(['頭髮', '生活']);
    expect(memory.cues).toEqual(['理髮']);
    expect(memory.expires).toBe('這個 PR 合併以後');
    expect(memory.extra.source).toBe('https://[REDACTED:url-credentials]@example.com/notes');
    expect(warnings).toEqual([]);
    expect(reload(memory.path)).toMatchObject({ summary: memory.summary, body: memory.body, tags: memory.tags });
  });

  it('stamps ids and times from the clock and writes to <ID>/<category>/<id>.md', async () => {
    const { memory } = await writeMemory(config, ROLE, { category: 'daily', body: '今天一起看了部署紀錄' });
    const now = config.clock.now();
    expect(memory.id).toMatch(new RegExp(`^${formatCompactDateTime(now)}-[0-9a-f]{6}$`));
    expect(memory.path).toBe(path.join(home.memoryHome, ROLE, 'daily', `${memory.id}.md`));
    expect(new Date(memory.created).getTime()).toBe(Date.parse('2026-12-01T09:30:00+08:00'));
    expect(memory).toMatchObject({
      created: formatLocalIso(now),
      updated: formatLocalIso(now),
      summary: '今天一起看了部署紀錄',
      memory_type: 'episodic',
      retention_stage: 'long_term',
      hits: 0,
    });
    const second = await writeMemory(config, ROLE, { category: 'daily', body: '同一秒的第二則' });
    expect(second.memory.id).not.toBe(memory.id);
    expect(fs.readdirSync(path.dirname(memory.path)).sort()).toEqual([`${memory.id}.md`, `${second.memory.id}.md`].sort());
  });

  it('keeps {{anything}} literally (DSH-7)', async () => {
    const { memory } = await writeMemory(config, ROLE, {
      category: 'inbox',
      summary: '模板 {{name}} 不展開',
      body: 'Hello {{user}} {{#each x}}',
    });
    expect(reload(memory.path)).toMatchObject({ summary: '模板 {{name}} 不展開', body: 'Hello {{user}} {{#each x}}' });
  });

  it('returns script-guard warnings named by field', async () => {
    const { memory, warnings } = await writeMemory(config, ROLE, { category: 'inbox', body: '这个发' });
    expect(memory.body).toBe('這個发');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^body: kept "发"/);
  });
});

describe('rememberText (CAP-7)', () => {
  it('writes an explicit inbox memory with priority 4 by default', async () => {
    const { memory } = await rememberText(config, ROLE, { text: '记住：使用者不喜欢早上开会', tags: ['会议'] });
    expect(memory).toMatchObject({
      category: 'inbox',
      priority: 4,
      relevance: ['explicit'],
      declarative: 'explicit',
      sleep_stage: 'encoding',
      retention_stage: 'working',
      tags: ['會議'],
      body: '記住：使用者不喜歡早上開會',
    });
  });

  it('marks expiring permissions temporary and honours category, type and priority', async () => {
    const { memory } = await rememberText(config, ROLE, {
      text: '這次可以直接 push',
      category: 'important',
      type: 'rule',
      priority: '5',
      expires: '2026-12-01',
    });
    expect(memory).toMatchObject({
      category: 'important',
      memory_type: 'rule',
      priority: 5,
      expires: '2026-12-01',
      relevance: ['explicit', 'temporary'],
    });
  });

  it('rejects bad values with errors that name them', async () => {
    await expect(rememberText(config, ROLE, { text: 'x', category: 'misc' })).rejects.toThrow(
      /category "misc" is not one of inbox, important/,
    );
    await expect(rememberText(config, ROLE, { text: 'x', type: 'feeling' })).rejects.toThrow(/memory type "feeling"/);
    await expect(rememberText(config, ROLE, { text: 'x', priority: '9' })).rejects.toThrow(
      /priority "9" must be a whole number from 1 to 5/,
    );
    await expect(rememberText(config, ROLE, { text: '  ' })).rejects.toMatchObject({ code: 'BAD_USAGE' });
    expect(fs.existsSync(path.join(home.memoryHome, ROLE))).toBe(false);
  });
});

describe('seedMemory (MEM-9)', () => {
  it('writes a consolidated seed memory with its source', async () => {
    const { memory } = await seedMemory(config, ROLE, {
      category: 'news',
      summary: '角色来源：动画第一季',
      tags: ['来源'],
      source: 'https://example.com/wiki/角色',
      body: '第一季的设定资料。',
    });
    expect(memory).toMatchObject({
      category: 'news',
      summary: '角色來源：動畫第一季',
      tags: ['來源'],
      sleep_stage: 'seed',
      retention_stage: 'long_term',
      extra: { source: 'https://example.com/wiki/角色' },
    });
    expect(memory.body).toBe('第一季的設定資料。\n\n來源：https://example.com/wiki/角色');
    expect(reload(memory.path).extra.source).toBe('https://example.com/wiki/角色');
  });

  it('refuses the inbox: a seed is consolidated by definition', async () => {
    await expect(seedMemory(config, ROLE, { category: 'inbox', summary: 's' })).rejects.toThrow(/cannot be inbox/);
  });
});

describe('a memory no reader would load is never written (issue 14)', () => {
  it('refuses a memory whose file would pass MAX_MEMORY_FILE_BYTES, writing nothing', async () => {
    const body = '老大說的話。'.repeat(60_000); // 360,000 characters, over 1 MB in UTF-8
    await expect(writeMemory(config, ROLE, { category: 'inbox', summary: '很長', body })).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: expect.stringMatching(/would be a 1\.\d MB file, more than a memory may be \(1 MB\); nothing was written/),
    });
    expect(loadRoleMemories(home.memoryHome, ROLE).memories).toEqual([]);
  });
});

describe('writeMemory: the one write path for capture, import and sleep', () => {
  it('with a derived id, writes once and a replay writes nothing (same file, same text)', async () => {
    const draft = { category: 'inbox' as const, body: '使用者喜歡簡短的回答', id: '20261201-093000-abc123' };
    const first = await writeMemory(config, ROLE, draft);
    const text = fs.readFileSync(first.memory.path, 'utf8');
    const again = await writeMemory(config, ROLE, { ...draft, body: '另一段文字' });
    expect(first.written).toBe(true);
    expect(again).toMatchObject({ written: false, memory: { path: first.memory.path } });
    expect(fs.readFileSync(first.memory.path, 'utf8')).toBe(text);
    expect(path.basename(first.memory.path)).toBe('20261201-093000-abc123.md');
  });

  it('keeps the history a memory brings (created, updated, hits, strength) instead of stamping now', async () => {
    const { memory } = await writeMemory(config, ROLE, {
      category: 'interest',
      body: '早上喝拿鐵',
      id: '20250101-080000-def456',
      created: '2025-01-01T08:00:00+08:00',
      updated: '2025-03-01T08:00:00+08:00',
      hits: 4,
      strength: 77,
    });
    expect(reload(memory.path)).toMatchObject({
      created: '2025-01-01T08:00:00+08:00',
      updated: '2025-03-01T08:00:00+08:00',
      hits: 4,
      strength: 77,
    });
  });

  it('cleans extras but keeps verbatim ones byte for byte, and drops repeated tags', async () => {
    const prepared = await prepareMemory(
      {
        category: 'other',
        body: '筆記',
        tags: ['头发', '頭髮', ' '],
        extra: { note: '头发' },
        verbatimExtra: { imported_from: 'lumi:记忆/头发.md' },
      },
      config.clock.now(),
    );
    expect(prepared.memory.tags).toEqual(['頭髮']);
    expect(prepared.memory.extra).toEqual({ note: '頭髮', imported_from: 'lumi:记忆/头发.md' });
    expect(prepared.cleaned).toBe(true);
  });

  it("keeps an imported body's indentation when asked, and trims it otherwise", async () => {
    const now = config.clock.now();
    const body = '\n    indented code\n  ';
    expect((await prepareMemory({ category: 'other', body, keepIndent: true }, now)).memory.body).toBe('    indented code');
    expect((await prepareMemory({ category: 'other', body }, now)).memory.body).toBe('indented code');
  });
});
