import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  BondList,
  MemoryDetail,
  MemoryList,
  MemorySearchResult,
  MemoryTimeStats,
  SleepHistory,
  SleepRunView,
  UiResult,
} from '../../../../common/ui-contract.js';
import { bundleEntry } from '../../../../test/helpers/bundle-entry.js';
import { fingerprints, writeMemoryFixture } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { fixedClock } from '../../platform/config/clock.js';
import { loadConfig } from '../../platform/config/config.js';
import { createLogger } from '../../platform/config/log.js';
import { runSleepInWorker } from '../../engine/sleep/run-in-worker.js';
import { startWebServer, type WebServer } from './web-server.js';

/** The timeline, sleep-history and bonds channels, called over HTTP as the UI calls them. */
const TOKEN = 'memory-test-token-0123456789';
// Every time here is local (no offset), in the zone the test runs in: days, Monday-first weeks and
// ages are the user's local ones, so the same fixture gives the same days and weeks in every zone.
const NOW = '2026-11-30T14:00:00';
const ROLE = 'ENGINEER01';
const OTHER = 'MUSE01';

let home: TempHome;
let server: WebServer | undefined;
let workerFile: string;
let plannerModule: string;
beforeAll(() => {
  // vitest runs TypeScript, which a worker thread cannot load: the worker runs from a bundle.
  workerFile = bundleEntry('main/core/engine/sleep/sleep-worker.ts');
  plannerModule = bundleEntry('test/sleep/scripted-planner-module.ts');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  home?.cleanup();
});

interface Spec {
  id: string;
  summary: string;
  created: string;
  category?: string;
  memory_type?: string;
  priority?: number;
  tags?: string[];
  links?: string[];
  cues?: string[];
  relevance?: string[];
  body?: string;
  role?: string;
}

function memory(spec: Spec): string {
  const { id, body = `${spec.summary}。`, role = ROLE, category = 'important', ...fields } = spec;
  return writeMemoryFixture(
    home.memoryHome,
    role,
    category,
    id,
    { priority: 3, memory_type: 'semantic', strength: 60, hits: 0, updated: spec.created, tags: [], ...fields },
    body,
  );
}

/** A small home: two roles, every clarity state, Chinese text, links (one of them dangling). */
function seed(): void {
  memory({
    id: 'm-deploy',
    summary: '上週把服務部署到正式環境',
    created: '2026-11-24T10:00:00',
    memory_type: 'procedural',
    tags: ['部署', 'ops'],
    cues: ['上線'],
    links: ['m-build', 'm-gone'],
    body: '主旨：部署流程\n細節：先跑測試，再用 blue-green 切換。',
  });
  memory({ id: 'm-build', summary: '建置要用 Node 20', created: '2026-11-25T09:00:00', memory_type: 'rule', category: 'skill' });
  memory({
    id: 'm-faded',
    summary: '十月的讀書會聊到分散式系統',
    created: '2026-10-25T20:00:00',
    memory_type: 'episodic',
    category: 'interest',
  });
  memory({ id: 'm-fuzzy', summary: '六月去過一家咖啡店', created: '2026-06-01T15:00:00', memory_type: 'episodic', category: 'daily' });
  memory({
    id: 'm-warm',
    summary: '使用者說謝謝陪伴',
    created: '2026-11-28T22:00:00',
    memory_type: 'emotional',
    relevance: ['emotional'],
    category: 'important',
  });
  memory({ id: 'i-new', summary: '今天在看 React 虛擬清單', created: '2026-11-30T11:00:00', memory_type: 'episodic', category: 'inbox' });
  memory({ id: 'o-muse', summary: '寫作時喜歡先列大綱', created: '2026-11-29T08:00:00', memory_type: 'preference', role: OTHER });
}

async function start(): Promise<void> {
  home = makeTempHome({ KIOKU_NOW: NOW, ROLE_SLEEP_START: '00:00', ROLE_SLEEP_END: '00:00' });
  seed();
  const config = loadConfig(home.env, { clock: fixedClock(NOW) });
  const logger = createLogger({ clock: config.clock });
  const status = () => ({ pid: 42, startedAt: NOW, version: 'test', memoryHome: config.paths.memoryHome, spoolPending: 0 });
  const runSleep = (options: Parameters<typeof runSleepInWorker>[1]) =>
    runSleepInWorker({ env: home.env }, options, { workerFile, plannerModule });
  server = await startWebServer(config, { logger, status, token: TOKEN, rendererDir: null, runSleep });
}

function post(channel: string, body: unknown): Promise<{ status: number; text: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server!.port,
        method: 'POST',
        path: `/api/${channel}`,
        headers: { Host: `127.0.0.1:${server!.port}`, 'x-kioku-token': TOKEN, 'Content-Type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function call<T>(channel: string, body: unknown): Promise<UiResult<T>> {
  return JSON.parse((await post(channel, body)).text) as UiResult<T>;
}

async function value<T>(channel: string, body: unknown): Promise<T> {
  const result = await call<T>(channel, body);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value;
}

const ids = (list: { items: { id: string }[] }) => list.items.map((item) => item.id);

describe('memories.list', () => {
  it('lists every memory and inbox item newest first, with clarity, and no file paths', async () => {
    await start();
    const { text } = await post('memories.list', { role: ROLE, offset: 0, limit: 100 });
    expect(text).not.toContain(home.root);
    const list = (JSON.parse(text) as UiResult<MemoryList>).ok ? (JSON.parse(text) as { value: MemoryList }).value : undefined;
    expect(list).toBeDefined();
    expect(ids(list!)).toEqual(['i-new', 'm-warm', 'm-build', 'm-deploy', 'm-faded', 'm-fuzzy']);
    expect(list!.total).toBe(6);
    const byId = new Map(list!.items.map((item) => [item.id, item]));
    expect(byId.get('i-new')).toMatchObject({ category: 'inbox', clarity: null });
    expect(byId.get('m-deploy')).toMatchObject({
      clarity: 'clear',
      links: 2,
      memory_type: 'procedural',
      tags: ['部署', 'ops'],
      role: ROLE,
    });
    expect(byId.get('m-faded')!.clarity).toBe('faded');
    expect(byId.get('m-fuzzy')!.clarity).toBe('fuzzy');
    expect(byId.get('m-warm')).toMatchObject({ warm: true, clarity: 'clear' });
  });

  it('pages with offset and limit, and filters by category, type, clarity and dates', async () => {
    await start();
    const page = await value<MemoryList>('memories.list', { role: ROLE, offset: 2, limit: 2 });
    expect(ids(page)).toEqual(['m-build', 'm-deploy']);
    expect(page).toMatchObject({ total: 6, offset: 2 });
    expect(ids(await value<MemoryList>('memories.list', { role: ROLE, types: ['episodic'], offset: 0, limit: 50 }))).toEqual([
      'i-new',
      'm-faded',
      'm-fuzzy',
    ]);
    expect(ids(await value<MemoryList>('memories.list', { role: ROLE, categories: ['inbox', 'skill'], offset: 0, limit: 50 }))).toEqual([
      'i-new',
      'm-build',
    ]);
    expect(ids(await value<MemoryList>('memories.list', { role: ROLE, clarity: ['faded', 'fuzzy'], offset: 0, limit: 50 }))).toEqual([
      'm-faded',
      'm-fuzzy',
    ]);
    expect(
      ids(await value<MemoryList>('memories.list', { role: ROLE, from: '2026-11-24', to: '2026-11-25', offset: 0, limit: 50 })),
    ).toEqual(['m-build', 'm-deploy']);
  });

  it('without a role, lists every role together; refuses a bad request with BAD_REQUEST', async () => {
    await start();
    const all = await value<MemoryList>('memories.list', { offset: 0, limit: 3 });
    expect(all.total).toBe(7);
    expect(all.items.map((item) => `${item.role}/${item.id}`)).toEqual([`${ROLE}/i-new`, `${OTHER}/o-muse`, `${ROLE}/m-warm`]);
    const bad = await post('memories.list', { role: '../x', offset: 0, limit: 10 });
    expect(bad.status).toBe(400);
    expect(await call('memories.list', { offset: -1, limit: 10 })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await call('memories.list', { offset: 0, limit: 10, types: ['gossip'] })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
  });
});

describe('memories.search', () => {
  it('finds Chinese without spaces and writes nothing back into the memory files', async () => {
    await start();
    const roleDir = path.join(home.memoryHome, ROLE);
    const before = fingerprints(roleDir);
    const found = await value<MemorySearchResult>('memories.search', { query: '部署', role: ROLE });
    expect(found.items[0]).toMatchObject({ id: 'm-deploy', role: ROLE, clarity: 'clear' });
    expect(found.items[0]!.score).toBeGreaterThan(0);
    expect(ids(found)).not.toContain('m-fuzzy');
    // A person looking something up is not the role recalling it: no hits, no strength, same bytes.
    expect(fingerprints(roleDir)).toEqual(before);
    const again = await value<MemoryDetail>('memories.get', { role: ROLE, id: 'm-deploy' });
    expect(again).toMatchObject({ hits: 0, strength: 60 });
  });

  it('searches every role when none is given, and the inbox too', async () => {
    await start();
    expect(ids(await value<MemorySearchResult>('memories.search', { query: '大綱' }))).toEqual(['o-muse']);
    expect(ids(await value<MemorySearchResult>('memories.search', { query: '虛擬清單', role: ROLE }))).toEqual(['i-new']);
    expect((await value<MemorySearchResult>('memories.search', { query: '完全沒有這個詞彙', role: ROLE })).items).toEqual([]);
    // A role with no memory folder yet (just created) has nothing, rather than an error.
    expect((await value<MemorySearchResult>('memories.search', { query: '部署', role: 'HELPER01' })).items).toEqual([]);
    expect(await value<MemoryList>('memories.list', { role: 'HELPER01', offset: 0, limit: 10 })).toMatchObject({ items: [], total: 0 });
    expect(fs.existsSync(path.join(home.memoryHome, 'HELPER01'))).toBe(false);
  });
});

describe('memories.get', () => {
  it('gives the body split into gist and detail, links resolved to summaries, and the PM-2 numbers', async () => {
    await start();
    const detail = await value<MemoryDetail>('memories.get', { role: ROLE, id: 'm-deploy' });
    expect(detail).toMatchObject({
      id: 'm-deploy',
      gist: '部署流程',
      detail: '先跑測試，再用 blue-green 切換。',
      cues: ['上線'],
      strength: 60,
      hits: 0,
      clarity: 'clear',
    });
    expect(detail.links_resolved).toEqual([
      { id: 'm-build', found: true, summary: '建置要用 Node 20', category: 'skill', memory_type: 'rule' },
      { id: 'm-gone', found: false },
    ]);
    expect(JSON.stringify(detail)).not.toContain(home.root);
  });

  it('says NOT_FOUND for an unknown memory and refuses a path as an ID', async () => {
    await start();
    expect(await call('memories.get', { role: ROLE, id: 'nope' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await call('memories.get', { role: ROLE, id: '../../etc/passwd' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });
});

describe('memories.stats', () => {
  it('counts by type per week (Monday first, quiet weeks included), by category and by clarity', async () => {
    await start();
    const stats = await value<MemoryTimeStats>('memories.stats', { role: ROLE });
    expect(stats.total).toBe(6);
    expect(stats.types).toMatchObject({ episodic: 3, procedural: 1, rule: 1, emotional: 1, semantic: 0 });
    expect(stats.categories).toMatchObject({ inbox: 1, important: 2, skill: 1, interest: 1, daily: 1 });
    expect(stats.clarity).toEqual({ clear: 3, faded: 1, fuzzy: 1 });
    expect(stats.weeks[0]!.start).toBe('2026-06-01');
    expect(stats.weeks.at(-1)!.start).toBe('2026-11-30');
    const week = (start: string) => stats.weeks.find((w) => w.start === start)!.counts;
    expect(stats.weeks.some((w) => w.start === '2026-11-24')).toBe(false);
    expect(week('2026-11-23')).toMatchObject({ procedural: 1, rule: 1, emotional: 1 });
    expect(week('2026-11-30')).toMatchObject({ episodic: 1 });
    expect(week('2026-07-06')).toMatchObject({ episodic: 0, semantic: 0 });
    expect(stats.days.map((d) => d.date)).toEqual(['2026-06-01', '2026-10-25', '2026-11-24', '2026-11-25', '2026-11-28', '2026-11-30']);
    const both = await value<MemoryTimeStats>('memories.stats', {});
    expect(both).toMatchObject({ role: null, total: 7 });
  });
});

describe('sleep history and bonds', () => {
  it('reads DIGESTS.md newest first with the applied counts, and BONDS.md with directions, newest first', async () => {
    await start();
    fs.writeFileSync(
      path.join(home.memoryHome, ROLE, 'DIGESTS.md'),
      '# 整理摘要（DIGESTS）\n\n## 2026/11/30 03:00:12\n整理了 4 則待整理記憶。\n- applied: created 3, merged 1, discarded 0, forgotten 2\n\n## 2026/11/29 03:00:00\n前一晚的整理。\n',
    );
    fs.writeFileSync(
      path.join(home.memoryHome, ROLE, 'BONDS.md'),
      '# 關係史（BONDS）\n\n- 2026-11-28 21:15 [使用者→角色] 謝謝你今天一直陪我除錯\n- 2026-11-29 09:00 [相互] 一起把部署搞定了\n- 沒有時間也沒有方向的一句話\n',
    );
    const history = await value<SleepHistory>('sleep.history', { role: ROLE, count: 10 });
    expect(history.digests).toHaveLength(2);
    expect(history.digests[0]).toMatchObject({
      time: '2026/11/30 03:00:12',
      summary: '整理了 4 則待整理記憶。',
      applied: { created: 3, merged: 1, discarded: 0, forgotten: 2 },
    });
    expect(history.digests[0]!.at).toMatch(/^2026-11-30T03:00:12[+-]\d\d:\d\d$/);
    expect((await value<SleepHistory>('sleep.history', { role: ROLE, count: 1 })).digests).toHaveLength(1);
    const bonds = await value<BondList>('bonds.list', { role: ROLE, count: 50 });
    expect(bonds.bonds.map((b) => [b.direction, b.text])).toEqual([
      [null, '沒有時間也沒有方向的一句話'],
      ['mutual', '一起把部署搞定了'],
      ['user-to-role', '謝謝你今天一直陪我除錯'],
    ]);
    expect(bonds.bonds[0]!.at).toBeNull();
    expect(Object.keys(bonds)).toEqual(['role', 'bonds']); // no totals: bonds are never counted (MEM-7)
    expect((await value<SleepHistory>('sleep.history', { role: OTHER, count: 5 })).digests).toEqual([]);
  });

  it('sleep.run consolidates the inbox now and the new digest shows in the history', async () => {
    await start();
    for (let n = 0; n < 3; n++)
      writeMemoryFixture(
        home.memoryHome,
        ROLE,
        'inbox',
        `I${n}`,
        { summary: `第 ${n} 件事`, created: `2026-11-30T10:0${n}:00`, memory_type: 'episodic' },
        `第 ${n} 件事。記號-${n}。`,
      );
    expect(await call('sleep.run', { role: ROLE })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const run = await value<SleepRunView>('sleep.run', { role: ROLE, force: true });
    expect(run.roles).toHaveLength(1);
    expect(run.roles[0]).toMatchObject({ id: ROLE, ok: true, processed: 4, left: 0 });
    for (const key of ['created', 'merged', 'discarded', 'forgotten'] as const) expect(typeof run.roles[0]![key]).toBe('number');
    expect(fs.readdirSync(path.join(home.memoryHome, ROLE, 'inbox'))).toEqual([]);
    const history = await value<SleepHistory>('sleep.history', { role: ROLE, count: 5 });
    expect(history.digests.length).toBeGreaterThanOrEqual(1);
    expect(history.digests[0]!.at).not.toBeNull();
  });
});
