import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  DaemonStatusLike,
  ForgottenList,
  MemoryActionDone,
  MemoryDetail,
  MemoryForgottenDone,
  MemorySearchResult,
  UiResult,
} from '../../../../common/ui-contract.js';
import { writeMemoryFixture } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { silentLogger } from '../../platform/config/log.js';
import { createUiApi, type UiApi } from './ui-api.js';

/** The timeline's memory actions (issue 16), called through the UI API as both hosts call it. */
const ROLE = 'ENGINEER01';
let home: TempHome;
let api: UiApi;
beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: '2026-11-30T14:00:00' });
  api = createUiApi(home.config(), { logger: silentLogger, status: () => ({ running: false }) as unknown as DaemonStatusLike });
  writeMemoryFixture(
    home.memoryHome,
    ROLE,
    'important',
    'm-port',
    { summary: '服務埠是 3000', priority: 3, memory_type: 'semantic', created: '2026-11-01T09:00:00', updated: '2026-11-01T09:00:00' },
    '- 第一點\n- 第二點',
  );
});
afterEach(() => home.cleanup());

async function ok<T>(channel: string, body: unknown): Promise<T> {
  const result = (await api.call(channel, body)) as UiResult<T>;
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value;
}

describe('memory actions over the UI API (issue 16)', () => {
  it('edits, and the next memories.get shows the edit with pinned and superseded flags', async () => {
    const done = await ok<MemoryActionDone>('memories.edit', {
      role: ROLE,
      id: 'm-port',
      changes: { summary: '服務埠改成 8080', priority: 5, tags: ['設定'] },
    });
    expect(done.changed).toEqual(['summary', 'tags', 'priority']);
    await ok('memories.pin', { role: ROLE, id: 'm-port', pinned: true });
    const detail = await ok<MemoryDetail>('memories.get', { role: ROLE, id: 'm-port' });
    expect(detail).toMatchObject({ summary: '服務埠改成 8080', priority: 5, tags: ['設定'], pinned: true });
    await ok('memories.markWrong', { role: ROLE, id: 'm-port' });
    expect(await ok<MemoryDetail>('memories.get', { role: ROLE, id: 'm-port' })).toMatchObject({
      superseded: true,
      summary: '〔已更正〕服務埠改成 8080',
    });
    expect((await ok<MemoryDetail>('memories.get', { role: ROLE, id: 'm-port' })).pinned).toBeUndefined();
  });

  it('forgets to the archive, lists it as forgotten, and restores it (the undo)', async () => {
    const file = path.join(home.memoryHome, ROLE, 'important', 'm-port.md');
    const bytes = fs.readFileSync(file);
    const forgotten = await ok<MemoryForgottenDone>('memories.forget', { role: ROLE, id: 'm-port' });
    expect(fs.existsSync(file)).toBe(false);
    const list = await ok<ForgottenList>('memories.forgotten', { role: ROLE });
    expect(list.items).toMatchObject([
      { name: forgotten.name, id: 'm-port', category: 'important', summary: '服務埠是 3000', body: '- 第一點\n- 第二點' },
    ]);
    await ok('memories.restore', { role: ROLE, name: forgotten.name });
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect((await ok<ForgottenList>('memories.forgotten', { role: ROLE })).items).toEqual([]);
  });

  it('re-indexes: a search finds the edited words at once, and no longer finds a forgotten memory', async () => {
    const ids = async (query: string) =>
      (await ok<MemorySearchResult>('memories.search', { query, role: ROLE })).items.map((item) => item.id);
    expect(await ids('藍綠部署')).toEqual([]);
    await ok('memories.edit', { role: ROLE, id: 'm-port', changes: { body: '改用藍綠部署切換服務埠' } });
    expect(await ids('藍綠部署')).toEqual(['m-port']);
    await ok('memories.forget', { role: ROLE, id: 'm-port' });
    expect(await ids('藍綠部署')).toEqual([]);
  });

  it('refuses bad requests with a code and a message naming the value, never a stack', async () => {
    for (const [channel, body, code, text] of [
      ['memories.edit', { role: ROLE, id: 'm-port', changes: { priority: 9 } }, 'BAD_REQUEST', 'changes.priority'],
      ['memories.edit', { role: ROLE, id: 'm-port', changes: { owner: 'x' } }, 'BAD_REQUEST', 'changes'],
      ['memories.restore', { role: ROLE, name: '../../etc/passwd' }, 'BAD_REQUEST', 'name'],
      ['memories.forget', { role: ROLE, id: 'ghost' }, 'NOT_FOUND', 'no memory "ghost"'],
      ['memories.pin', { role: 'NOBODY01', id: 'm-port', pinned: true }, 'NOT_FOUND', 'role NOBODY01 does not exist'],
    ] as const) {
      const result = await api.call(channel, body);
      expect(result.ok, channel).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe(code);
        expect(result.error.message).toContain(text);
        expect(result.error.message).not.toMatch(/\bat .+:\d+:\d+/);
      }
    }
  });
});
