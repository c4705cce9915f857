import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeMemoryFixture } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { editMemory } from './edit-memory.js';
import { forgetMemories } from './forget.js';
import { forgetMemory } from './forget-one.js';
import { listForgotten } from './list-forgotten.js';
import { markMemoryWrong, MARKED_BY_USER } from './mark-wrong.js';
import { loadRoleMemories } from './memory-layout.js';
import { restoreForgotten } from './restore-forgotten.js';

const ROLE = 'TESTER01';
let home: TempHome;
beforeEach(() => {
  // Local time (no offset): the product reads dates in the zone it runs in.
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T10:00:00' });
});
afterEach(() => home.cleanup());

const write = (category: string, id: string, fields: Record<string, unknown> = {}, body = '第一段。\n\n第二段。') =>
  writeMemoryFixture(
    home.memoryHome,
    ROLE,
    category,
    id,
    {
      summary: `摘要 ${id}`,
      priority: 3,
      memory_type: 'semantic',
      created: '2026-11-01T09:00:00',
      updated: '2026-11-01T09:00:00',
      hits: 2,
      custom_key: '保留',
      ...fields,
    },
    body,
  );
const read = (file: string) => fs.readFileSync(file, 'utf8');
const byId = (id: string) => loadRoleMemories(home.memoryHome, ROLE).memories.find((m) => m.id === id);

describe('editMemory (issue 16)', () => {
  it('changes the given fields only, keeps unknown keys and counters, and stamps updated', async () => {
    const file = write('important', 'node');
    const result = await editMemory(home.config(), ROLE, 'node', {
      summary: '專案一律用 Node 22',
      tags: ['node', ' 版本 ', 'node'],
      priority: '5',
      expires: '2026-12-31',
    });
    expect(result.changed).toEqual(['summary', 'tags', 'priority', 'expires']);
    const text = read(file);
    expect(text).toContain('summary: 專案一律用 Node 22');
    expect(text).toContain('custom_key: 保留');
    const memory = byId('node')!;
    expect(memory).toMatchObject({
      summary: '專案一律用 Node 22',
      tags: ['node', '版本'],
      priority: 5,
      expires: '2026-12-31',
      hits: 2,
      body: '第一段。\n\n第二段。',
    });
    expect(memory.updated.startsWith('2026-12-01T10:00:00')).toBe(true);
  });

  it('leaves the file untouched (bytes and time) when nothing differs', async () => {
    const file = write('daily', 'same');
    const before = fs.statSync(file).mtimeMs;
    const bytes = read(file);
    const result = await editMemory(home.config(), ROLE, 'same', { summary: '摘要 same', priority: 3 });
    expect(result.changed).toEqual([]);
    expect(read(file)).toBe(bytes);
    expect(fs.statSync(file).mtimeMs).toBe(before);
  });

  it('moves the file when the category changes, never over another file', async () => {
    const file = write('inbox', 'move-me');
    const result = await editMemory(home.config(), ROLE, 'move-me', { category: 'skill' });
    expect(result.movedFrom).toBe(file);
    expect(fs.existsSync(file)).toBe(false);
    expect(result.memory.path).toBe(path.join(home.memoryHome, ROLE, 'skill', 'move-me.md'));
    expect(byId('move-me')).toMatchObject({ category: 'skill', retention_stage: 'long_term' });

    write('daily', 'twin');
    const other = write('news', 'twin-2');
    fs.renameSync(other, path.join(path.dirname(other), 'twin.md'));
    await expect(editMemory(home.config(), ROLE, 'twin', { category: 'news' })).rejects.toThrow(
      /already exists; the memory was left in daily/,
    );
  });

  it('refuses bad values with an error naming them, and writes nothing', async () => {
    const file = write('daily', 'bad');
    const bytes = read(file);
    await expect(editMemory(home.config(), ROLE, 'bad', { priority: 9 })).rejects.toThrow(
      'priority "9" must be a whole number from 1 to 5',
    );
    await expect(editMemory(home.config(), ROLE, 'bad', { category: 'attic' })).rejects.toThrow('category "attic" is not one of');
    await expect(editMemory(home.config(), ROLE, 'bad', { summary: '   ' })).rejects.toThrow('the summary is empty');
    await expect(editMemory(home.config(), ROLE, 'bad', { expires: 'a\nb' })).rejects.toThrow(/must be one line/);
    await expect(editMemory(home.config(), ROLE, 'nope', { priority: 2 })).rejects.toThrow('no memory "nope" in TESTER01');
    expect(read(file)).toBe(bytes);
  });

  it('redacts secrets typed into an edit, like every stored text', async () => {
    const file = write('daily', 'secret');
    const result = await editMemory(home.config(), ROLE, 'secret', {
      body: '金鑰是 sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCD',
    });
    expect(read(file)).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
    expect(result.changed).toEqual(['body']);
  });
});

describe('pinning (issue 16)', () => {
  it('pin writes pinned: true and unpin removes it; a pinned memory is never forgotten, even expired', async () => {
    const file = write('daily', 'old-walk', { priority: 1, hits: 0, memory_type: 'episodic', updated: '2026-09-01T09:00:00' });
    write('daily', 'old-run', { priority: 1, hits: 0, memory_type: 'episodic', updated: '2026-09-01T09:00:00' });
    write('important', 'grant', { priority: 5, memory_type: 'rule', expires: '2026-11-20' });
    expect((await editMemory(home.config(), ROLE, 'old-walk', { pinned: true })).changed).toEqual(['pinned']);
    await editMemory(home.config(), ROLE, 'grant', { pinned: true });
    expect(read(file)).toMatch(/^pinned: true$/m);
    const dry = forgetMemories(home.config(), ROLE, { dryRun: true });
    expect(dry.forgotten.map((f) => f.id)).toEqual(['old-run']);
    await editMemory(home.config(), ROLE, 'old-walk', { pinned: false });
    expect(byId('old-walk')!.updated).toBe('2026-09-01T09:00:00'); // pinning is not an edit: the age stays
    expect(read(file)).not.toContain('pinned');
    expect(
      forgetMemories(home.config(), ROLE, { dryRun: true })
        .forgotten.map((f) => f.id)
        .sort(),
    ).toEqual(['old-run', 'old-walk']);
  });
});

describe('pinning an inbox item (issue 16)', () => {
  it('is refused, since consolidation would drop the pin, but pinning while moving it out works', async () => {
    const file = write('inbox', 'fresh');
    const bytes = read(file);
    await expect(editMemory(home.config(), ROLE, 'fresh', { pinned: true })).rejects.toThrow(
      'fresh is still in the inbox; a pin would not survive its consolidation',
    );
    expect(read(file)).toBe(bytes);
    const moved = await editMemory(home.config(), ROLE, 'fresh', { category: 'important', pinned: true });
    expect(moved.changed).toEqual(['category', 'pinned']);
  });
});

describe('forgetting one memory and restoring it (issue 16)', () => {
  it('archives the original bytes, lists them as forgotten, and restore puts them back', () => {
    const file = write('important', 'wrong-port', { priority: 5 });
    const bytes = fs.readFileSync(file);
    const result = forgetMemory(home.config(), ROLE, 'wrong-port');
    expect(result).toMatchObject({ id: 'wrong-port', category: 'important', name: 'wrong-port' });
    expect(fs.existsSync(file)).toBe(false);
    const listed = listForgotten(home.memoryHome, ROLE);
    expect(listed.total).toBe(1);
    expect(listed.entries[0]).toMatchObject({
      name: 'wrong-port',
      memory: { id: 'wrong-port', category: 'important', summary: '摘要 wrong-port' },
    });
    // When it was forgotten, on Kioku's clock (KIOKU_NOW), not the machine's.
    expect(new Date(listed.entries[0]!.forgottenAt).getTime()).toBe(new Date(2026, 11, 1, 10, 0).getTime());
    restoreForgotten(home.config(), ROLE, result.name);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect(listForgotten(home.memoryHome, ROLE).entries).toEqual([]);
  });

  it('says which memory is missing, and reports an unreadable archive while listing the rest', () => {
    expect(() => forgetMemory(home.config(), ROLE, 'ghost')).toThrow('no memory "ghost" in TESTER01');
    write('daily', 'kept');
    forgetMemory(home.config(), ROLE, 'kept');
    fs.writeFileSync(path.join(home.memoryHome, ROLE, 'archive', 'forgotten', 'broken.md.gz'), 'not gzip');
    const listed = listForgotten(home.memoryHome, ROLE);
    expect(listed.entries.map((e) => e.name)).toEqual(['kept']);
    expect(listed.problems[0]!.path).toMatch(/broken\.md\.gz$/);
  });
});

describe('marking a memory wrong (issue 16)', () => {
  it('supersedes it by the user, labelled, unpinned, body kept', async () => {
    const file = write('important', 'yarn', { memory_type: 'preference', pinned: true });
    await markMemoryWrong(home.config(), ROLE, 'yarn');
    const memory = byId('yarn')!;
    expect(memory.summary).toBe('〔已更正〕摘要 yarn');
    expect(memory.extra.superseded_by).toBe(MARKED_BY_USER);
    expect(memory.extra.pinned).toBeUndefined();
    expect(memory.body).toContain('第一段。');
    expect(read(file)).toContain('使用者標記為錯誤');
  });

  it('with a correction, writes it as a new memory of the same kind and points to it', async () => {
    write('important', 'yarn', { memory_type: 'preference', tags: ['套件'] });
    const result = await markMemoryWrong(home.config(), ROLE, 'yarn', '改用 pnpm，不要再用 yarn');
    const correction = byId(result.correction!.id)!;
    expect(correction).toMatchObject({
      category: 'important',
      memory_type: 'preference',
      tags: ['套件'],
      body: '改用 pnpm，不要再用 yarn',
    });
    expect(byId('yarn')!.extra.superseded_by).toBe(correction.id);
  });
});
