import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { importJscPersonas } from '../../main/core/integrations/import/jsc-persona-import.js';
import { openMemoryIndex } from '../../main/core/store/index/memory-index.js';
import { recall } from '../../main/core/store/index/recall.js';
import { reindexMemories } from '../../main/core/store/index/reindex.js';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { readActiveRoleId } from '../../main/core/store/roles/role-active.js';
import { readRoleDefinition } from '../../main/core/store/roles/role-repository.js';
import { makeTempHome, snapshotTree, type TempHome } from '../helpers/temp-home.js';

/**
 * X-IMPORT from persona-memory (jsc): the sample tree in test/fixtures/import/jsc-persona
 * follows persona-memory's memory layout (記憶架構: long-term files with strength and recall counts, short-term JSONL,
 * inbox rooms). Must show: two runs give the same homes, and every imported memory is found by
 * recall (Chinese included).
 */
const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'import', 'jsc-persona');

const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function newHome(): TempHome {
  const home = makeTempHome({ KIOKU_NOW: '2026-08-10T12:00:00+08:00' });
  homes.push(home);
  return home;
}

describe('kioku import --from jsc-persona', () => {
  it('imports twice with the same result: the second run changes nothing, byte for byte', async () => {
    const home = newHome();
    const config = home.config();
    const first = await importJscPersonas(config, FIXTURE);
    expect(first.changes).toBeGreaterThan(10);
    const afterFirst = snapshotTree(home.root);
    const second = await importJscPersonas(config, FIXTURE);
    expect(snapshotTree(home.root)).toEqual(afterFirst);
    expect(second.changes).toBe(0);
    expect(second.memories.map((m) => m.action).every((action) => action === 'exists')).toBe(true);
    expect(second.memories.map((m) => m.path).sort()).toEqual(first.memories.map((m) => m.path).sort());
    expect(second.roles.map((r) => [r.id, r.action])).toEqual([
      ['KURO01', 'memory-only'],
      ['LUMI01', 'exists'],
    ]);
  });

  it('maps the persona and keeps strength, recall counts and dates (the documented table)', async () => {
    const home = newHome();
    const config = home.config();
    const report = await importJscPersonas(config, FIXTURE);
    expect(report.roles.map((r) => [r.sourceKey, r.id, r.action])).toEqual([
      ['jsc-persona:kuro', 'KURO01', 'memory-only'],
      ['jsc-persona:lumi', 'LUMI01', 'create'],
    ]);
    const role = readRoleDefinition(config.paths.roleHome, 'LUMI01');
    expect(role.name).toBe('Lumi');
    expect(role.emoji).toBe('🌙');
    expect(role.aliases).toEqual(['露米']);
    expect(role.nature).toBe('細心的研究助理，擅長把零散的資料整理成結論。\n不確定時先說不確定，再去查證。');
    expect(role.vibe).toBe('語氣溫和、句子短，偶爾開個小玩笑；稱呼使用者「你」。');
    expect(role.extraFields.imported_from).toBe('jsc-persona:lumi');
    expect(role.extraSections.map((s) => s.heading)).toContain('核心信念');
    expect(readActiveRoleId(config.paths.roleHome)).toBe('LUMI01');
    // kuro has no persona.md: no role files are invented, only its memory folder.
    expect(fs.existsSync(path.join(config.paths.roleHome, 'KURO01.identity.md'))).toBe(false);
    expect(report.roles[0]!.notes.join('\n')).toMatch(/only the memories are imported/);

    const { memories, problems } = loadRoleMemories(config.paths.memoryHome, 'LUMI01');
    expect(problems).toEqual([]);
    const byName = (name: string) => memories.find((m) => m.extra.name === name)!;
    const meetings = byName('hates-morning-meetings');
    expect(meetings).toMatchObject({
      category: 'important',
      memory_type: 'preference',
      priority: 4,
      strength: 58,
      hits: 3,
      created: '2026-03-12',
      updated: '2026-07-28',
      last_replayed: '2026-07-28',
      tags: ['work', 'schedule'],
      summary: '使用者討厭早上的會議，約會議請排 14:00 之後。',
      retention_stage: 'long_term',
    });
    // The text is kept exactly, 主旨/細節 labels and all (PM-1).
    const source = fs.readFileSync(path.join(FIXTURE, 'lumi/memory/long-term/hates-morning-meetings.md'), 'utf8');
    expect(source.endsWith(`${meetings.body}\n`)).toBe(true);
    expect(meetings.extra).toMatchObject({ when: '早上', mood: '負向', salience: 72, rules: 'R2+R3', type: 'preference' });
    expect(byName('promise-friday-pr-review')).toMatchObject({
      category: 'important',
      memory_type: 'rule',
      priority: 5,
      strength: 90,
      hits: 5,
    });
    expect(byName('first-all-nighter')).toMatchObject({ category: 'daily', memory_type: 'emotional', relevance: ['emotional'] });
    expect(byName('canon-origin')).toMatchObject({ category: 'important', memory_type: 'semantic', priority: 5 });
    expect(byName('night-owl-insight')).toMatchObject({ category: 'other', memory_type: 'semantic', hits: 2, strength: 62 });
    // An old-format file without strength gets the default for its priority (MEM-2), like any file.
    expect(byName('old-format-tea')).toMatchObject({ priority: 2, strength: 50, summary: '他下午習慣喝無糖烏龍茶，不喝咖啡。' });

    // Short-term lines and room notes are inbox items; judged lines are left out, with the reason.
    const inbox = memories.filter((m) => m.category === 'inbox');
    const bodies = inbox.map((m) => m.body);
    for (const text of [
      '下週三的發表會我有點緊張，投影片還沒做完。',
      '我答應週五前幫他看完 PR #42 的整合測試。',
      '在 review 房間看到他把 CI 的快取改成 actions/cache@v4，建置從九分鐘降到四分鐘。',
      '他提到想把部署腳本改寫成 Makefile，還沒決定。',
    ]) {
      expect(bodies).toContain(text);
    }
    expect(inbox).toHaveLength(5);
    const secret = inbox.find((m) => m.body.includes('staging'))!;
    expect(secret.body).not.toContain('hunter2');
    expect(report.memories.find((m) => m.id === secret.id)!.cleaned).toBe(true);
    expect(inbox.find((m) => m.body.includes('Makefile'))!.extra.room).toBe('room-20260801-review');
    expect(inbox.find((m) => m.body.includes('發表會'))).toMatchObject({
      created: '2026-07-28T09:12:00+08:00',
      relevance: ['emotional'],
      tags: ['發表會', '壓力'],
    });
    const reasons = report.skipped.map((s) => `${s.source} ${s.reason}`).join('\n');
    expect(reasons).toMatch(/short-term\.jsonl#L2 already consolidated into long-term memory "hates-morning-meetings"/);
    expect(reasons).toMatch(/short-term\.jsonl#L3 judged and not kept/);
    expect(reasons).toMatch(/short-term\.jsonl#L6 not a JSON object/);
    expect(reasons).toMatch(/lumi\/journal not imported/);

    // The Simplified-Chinese memory is stored in Traditional (PRIV-2) and reported as cleaned.
    const simplified = byName('simplified-note-habit');
    expect(simplified.body).toBe('主旨：用戶習慣用紙本筆記整理會議重點。');
    expect(simplified.tags).toEqual(['筆記', '習慣']);
    expect(report.memories.find((m) => m.id === simplified.id)!.cleaned).toBe(true);

    expect(
      loadRoleMemories(config.paths.memoryHome, 'KURO01')
        .memories.map((m) => m.summary)
        .sort(),
    ).toEqual(['使用者養了一隻叫黑糖的橘貓，聊到貓會放鬆下來。', '黑糖今天把鍵盤當成床睡了一下午。']);
  });

  it('every imported memory is found by recall after a reindex, Chinese phrases included', async () => {
    const home = newHome();
    const config = home.config();
    const report = await importJscPersonas(config, FIXTURE);
    const index = openMemoryIndex(config.paths);
    try {
      expect(reindexMemories(index, 'all').problems).toEqual([]);
      const found = (role: string, query: string) =>
        recall(index, { role, query, clock: config.clock, writeBack: false, limit: 20 }).memories.map((m) => m.id);
      const imported = report.memories.filter((m) => m.action === 'create');
      expect(imported.length).toBeGreaterThanOrEqual(13);
      for (const memory of imported) {
        // A distinctive phrase of each: its summary, without the punctuation at the ends.
        const phrase = memory.summary.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').slice(0, 14);
        expect(found(memory.role, phrase), `${memory.source}: "${phrase}"`).toContain(memory.id);
      }
      const id = (name: string) => report.memories.find((m) => m.source.endsWith(`${name}.md`))!.id;
      expect(found('LUMI01', '腦子還沒開機')).toContain(id('hates-morning-meetings'));
      expect(found('LUMI01', '記憶體洩漏')).toContain(id('first-all-nighter'));
      expect(found('LUMI01', '紙本筆記')).toContain(id('simplified-note-habit'));
      expect(found('LUMI01', '纸本笔记')).toEqual([]); // the query is not converted here; the CLI converts it (recall-query-script)
      expect(found('KURO01', '黑糖')).toHaveLength(2);
    } finally {
      index.close();
    }
  });

  it('--dry-run lists exactly what a real run writes, and writes nothing', async () => {
    const home = newHome();
    const config = home.config();
    const before = snapshotTree(home.root);
    const dry = await importJscPersonas(config, FIXTURE, { dryRun: true });
    expect(snapshotTree(home.root)).toEqual(before);
    expect(dry.dryRun).toBe(true);
    const real = await importJscPersonas(config, FIXTURE);
    const plan = (report: typeof dry) => ({
      roles: report.roles.map((r) => [r.id, r.action, r.madeActive]),
      memories: report.memories.map((m) => [m.path, m.action]),
      changes: report.changes,
    });
    expect(plan(dry)).toEqual(plan(real));
    for (const memory of real.memories) expect(fs.existsSync(memory.path)).toBe(true);
  });

  it('a memory consolidated by a sleep since the import is not imported again', async () => {
    const home = newHome();
    const config = home.config();
    const report = await importJscPersonas(config, FIXTURE);
    const item = report.memories.find((m) => m.category === 'inbox' && m.role === 'LUMI01')!;
    // What a sleep does to an inbox item: gzip it into archive/raw/<date>/ and remove it.
    const archived = path.join(config.paths.memoryHome, 'LUMI01', 'archive', 'raw', '2026-08-11', `${path.basename(item.path)}.gz`);
    fs.mkdirSync(path.dirname(archived), { recursive: true });
    fs.writeFileSync(archived, 'gz');
    fs.unlinkSync(item.path);
    const again = await importJscPersonas(config, FIXTURE);
    expect(again.changes).toBe(0);
    expect(fs.existsSync(item.path)).toBe(false);
    expect(again.memories.find((m) => m.id === item.id)).toMatchObject({ action: 'exists', path: archived });
  });

  it('an existing role with the same prefix gets the next index; a memory-only persona is found again by its memories', async () => {
    const home = newHome();
    const config = home.config();
    fs.writeFileSync(
      path.join(config.paths.roleHome, 'LUMI01.identity.md'),
      '---\nid: LUMI01\nname: 別的 Lumi\nemoji: ⭐\n---\n\n# 別的 Lumi\n',
    );
    fs.writeFileSync(
      path.join(config.paths.roleHome, 'LUMI01.soul.md'),
      '---\nid: LUMI01\n---\n\n## 本質（nature）\n\n另一個角色。\n\n## 氛圍（vibe）\n\n安靜。\n',
    );
    const first = await importJscPersonas(config, FIXTURE);
    expect(first.roles.map((r) => r.id)).toEqual(['KURO01', 'LUMI02']);
    expect(readRoleDefinition(config.paths.roleHome, 'LUMI01').name).toBe('別的 Lumi');
    const second = await importJscPersonas(config, FIXTURE);
    expect(second.roles.map((r) => [r.id, r.action])).toEqual([
      ['KURO01', 'memory-only'],
      ['LUMI02', 'exists'],
    ]);
    expect(second.changes).toBe(0);
  });
});
