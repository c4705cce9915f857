import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFrontmatter } from '../../main/core/platform/frontmatter/parse-frontmatter.js';
import { stringifyFrontmatter } from '../../main/core/platform/frontmatter/stringify-frontmatter.js';
import { syncNow } from '../../main/core/engine/sync/sync-now.js';
import { collectSyncStatus } from '../../main/core/engine/sync/sync-status.js';
import { initMachine, makeCluster, memoryIds, remember, writeRole, type Cluster, type Machine } from './sync-kit.js';

const ROLE = 'LUMI01';
let cluster: Cluster | undefined;
afterEach(() => {
  cluster?.cleanup();
  cluster = undefined;
});

function memoryPath(m: Machine, id: string): string {
  return path.join(m.env.ROLE_MEMORY_HOME!, ROLE, 'daily', `${id}.md`);
}

function edit(m: Machine, id: string, change: (data: Record<string, unknown>, body: string) => [Record<string, unknown>, string]): void {
  const file = memoryPath(m, id);
  const parsed = parseFrontmatter(fs.readFileSync(file, 'utf8'));
  const [data, body] = change(parsed.data, parsed.body);
  fs.writeFileSync(file, stringifyFrontmatter(data, body));
}

async function pair(): Promise<{ a: Machine; b: Machine; id: string }> {
  cluster = makeCluster();
  const a = cluster.machine('desk');
  const b = cluster.machine('laptop');
  writeRole(a, ROLE, '露米');
  const id = await remember(a, ROLE, 'daily', '使用者用 vim\n第二行\n第三行\n第四行');
  await initMachine(a, cluster.remote);
  await initMachine(b, cluster.remote);
  return { a, b, id };
}

describe('a memory changed on two machines', () => {
  it('recalled on both (hits, last_replayed, tags): merges field by field, no conflict copy', async () => {
    const { a, b, id } = await pair();
    edit(a, id, (d, body) => [{ ...d, hits: 2, last_replayed: '2026-12-02T09:00:00+08:00', tags: ['編輯器'] }, body]);
    edit(b, id, (d, body) => [{ ...d, hits: 3, last_replayed: '2026-12-02T10:00:00+08:00', tags: ['vim'] }, body]);
    await syncNow(a.config());
    await syncNow(b.config());
    await syncNow(a.config());
    for (const m of [a, b]) {
      expect(memoryIds(m, ROLE)).toEqual([id]);
      const data = parseFrontmatter(fs.readFileSync(memoryPath(m, id), 'utf8')).data;
      expect(data.hits).toBe(5);
      expect(data.last_replayed).toBe('2026-12-02T10:00:00+08:00');
      expect([...(data.tags as string[])].sort()).toEqual(['vim', '編輯器']);
    }
  });

  it('edited apart (different lines of the body): one merged memory holding both edits', async () => {
    const { a, b, id } = await pair();
    edit(a, id, (d, body) => [d, body.replace('第二行', '第二行（A 改）')]);
    edit(b, id, (d, body) => [d, body.replace('第四行', '第四行（B 改）')]);
    await syncNow(a.config());
    await syncNow(b.config());
    await syncNow(a.config());
    for (const m of [a, b]) {
      expect(memoryIds(m, ROLE)).toEqual([id]);
      const text = fs.readFileSync(memoryPath(m, id), 'utf8');
      expect(text).toContain('第二行（A 改）');
      expect(text).toContain('第四行（B 改）');
    }
  });

  it('the same line edited both ways: both versions kept, the other as a linked conflict memory shown in status', async () => {
    const { a, b, id } = await pair();
    edit(a, id, (d, body) => [{ ...d, summary: 'A 的說法' }, body.replace('使用者用 vim', '使用者改用 emacs')]);
    edit(b, id, (d, body) => [{ ...d, summary: 'B 的說法' }, body.replace('使用者用 vim', '使用者改用 helix')]);
    await syncNow(a.config());
    await syncNow(b.config());
    await syncNow(a.config());
    const seen: string[] = [];
    for (const m of [a, b]) {
      const ids = memoryIds(m, ROLE);
      expect(ids).toHaveLength(2);
      const copyId = ids.find((x) => x !== id)!;
      expect(copyId).toMatch(new RegExp(`^${id}\\.conflict-[0-9a-f]{6}$`));
      const original = fs.readFileSync(memoryPath(m, id), 'utf8');
      const copy = parseFrontmatter(fs.readFileSync(memoryPath(m, copyId), 'utf8'));
      // The machine that merged keeps its own version in place; the other becomes the copy.
      expect([original, copy.body].join('\n')).toMatch(/使用者改用 emacs[\s\S]*使用者改用 helix|使用者改用 helix[\s\S]*使用者改用 emacs/);
      expect(copy.data.links).toContain(id);
      expect(copy.data.tags).toContain('conflict');
      expect(copy.data.conflict_of).toBe(id);
      for (const text of [original, copy.body]) expect(text).not.toMatch(/^(<<<<<<<|>>>>>>>|=======)/m);
      expect(collectSyncStatus(m.config()).conflicts).toEqual([`${ROLE}/daily/${copyId}.md`]);
      seen.push(original + fs.readFileSync(memoryPath(m, copyId), 'utf8'));
    }
    expect(seen[0]).toBe(seen[1]); // both machines end with the same two files
  });

  it('forgotten on one machine while edited on the other: the edited memory is kept', async () => {
    const { a, b, id } = await pair();
    fs.rmSync(memoryPath(a, id));
    edit(b, id, (d, body) => [d, `${body}\n補充`]);
    await syncNow(a.config());
    await syncNow(b.config());
    await syncNow(a.config());
    for (const m of [a, b]) {
      expect(memoryIds(m, ROLE)).toEqual([id]);
      expect(fs.readFileSync(memoryPath(m, id), 'utf8')).toContain('補充');
    }
  });
});
