import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, snapshotTree, type TempHome } from '../../../../test/helpers/temp-home.js';
import { countOf, readArchives, ROLE, writeExisting, writeInbox } from '../../../../test/sleep/sleep-fixtures.js';
import { formatCompactDateTime, formatLocalDate, formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { readBonds } from '../../store/memory/bonds.js';
import { readDigests } from '../../store/memory/digests.js';
import { parseMemory } from '../../store/memory/memory-file.js';
import { forgetReason } from '../../store/memory/forget.js';
import { readMemoryState } from '../../store/memory/memory-state.js';
import { applyNewPlan, applyPending } from './apply-plan.js';
import { collectBatch } from './collect.js';
import { MemoryCatalog } from './memory-catalog.js';
import { listPending, pendingFile, writePending, type PendingPlan } from './pending-plans.js';
import { replayPendingPlans, existingById } from './replay-pending.js';
import { appliedDir, planFileName } from './sleep-paths.js';
import { PlannerError, type CollectedBatch, type SleepPlan } from './sleep-plan.js';

const NOW = '2026-11-30T03:00:00+08:00';
const PLAN_ID = '20261130-030000-abcdef01';
let home: TempHome;
afterEach(() => home?.cleanup());

function roleDir(): string {
  return path.join(home.memoryHome, ROLE);
}

/** Two existing memories (semantic, emotional), one with a denied probe, four inbox items. */
function setup(): KiokuConfig {
  home = makeTempHome({ KIOKU_NOW: NOW });
  writeExisting(
    home.memoryHome,
    'E1',
    { memory_type: 'semantic', tags: ['部署'], first_seen: '2026-10-01', custom_key: 'keep me', links: ['E2'] },
    '部署流程要先跑測試。記號-900。',
  );
  writeExisting(home.memoryHome, 'E2', { memory_type: 'emotional', relevance: ['emotional'], links: ['E1'] }, '使用者說謝謝陪伴。');
  writeExisting(
    home.memoryHome,
    'D1',
    { category: 'daily', memory_type: 'preference', probe: 'denied', needs_correction: true, probe_note: '其實是週一早上' },
    '使用者討厭早上開會。',
  );
  writeInbox(home.memoryHome, { id: 'I1', body: '今天修好 CI。記號-0。', tags: ['CI'], created: '2026-11-29T10:00:00+08:00' });
  writeInbox(home.memoryHome, {
    id: 'I2',
    body: '部署前要清快取。記號-1。',
    memory_type: 'semantic',
    created: '2026-11-29T10:01:00+08:00',
  });
  writeInbox(home.memoryHome, { id: 'I3', body: '嗯嗯好。記號-3。', created: '2026-11-29T10:02:00+08:00' });
  writeInbox(home.memoryHome, {
    id: 'I4',
    body: '使用者說有妳真好。記號-2。',
    memory_type: 'emotional',
    created: '2026-11-29T10:03:00+08:00',
  });
  return home.config();
}

function collect(): { batch: CollectedBatch; catalog: MemoryCatalog } {
  const catalog = new MemoryCatalog(home.memoryHome, ROLE);
  const batch = collectBatch(ROLE, catalog.snapshot(), { items: 4, chars: 12_000, existing: 120 });
  if (!batch) throw new Error('no batch');
  return { batch, catalog };
}

function plan(batch: CollectedBatch): SleepPlan {
  return {
    v: 1,
    id: PLAN_ID,
    role: ROLE,
    planner: 'test',
    batch: batch.items.map((item) => item.id),
    create: [
      {
        key: 'n1',
        category: 'skill',
        summary: '修好 CI',
        body: '今天修好 CI。記號-0。',
        tags: ['CI'],
        priority: 3,
        cues: ['CI'],
        memory_type: 'procedural',
        declarative: 'implicit',
        relevance: [],
        expires: '',
        links: ['E1'],
        sources: ['I1'],
      },
      {
        key: 'n2',
        category: 'important',
        summary: '有妳真好',
        body: '使用者說有妳真好。記號-2。',
        tags: ['感謝'],
        priority: 4,
        cues: [],
        memory_type: 'emotional',
        declarative: 'implicit',
        relevance: ['emotional'],
        expires: '',
        links: [],
        sources: ['I4'],
      },
    ],
    merge: [
      {
        target: 'E1',
        summary: '部署流程',
        body: '部署流程要先跑測試。記號-900。\n部署前要清快取。記號-1。',
        tags: ['部署', '快取'],
        cues: ['部署'],
        priority: 4,
        links: [],
        sources: ['I2'],
      },
    ],
    link: [{ from: 'n2', to: 'E2' }],
    bonds: [{ direction: 'user-to-role', text: '有妳真好', source: 'I4' }],
    discard: [{ source: 'I3', reason: '雜訊' }],
    corrections: [{ target: 'D1', summary: '討厭週一早上開會', body: '原本以為使用者討厭早上開會，後來發現其實是週一早上。' }],
    digest: '整理了 4 則：新增 2、合併 1、捨棄 1。',
  };
}

function memoryAt(rel: string) {
  return parseMemory(fs.readFileSync(path.join(roleDir(), rel), 'utf8'));
}

/** Created memories: named `<plan time>-<hash>.md` (the fixtures' own files are E1, E2, D1). */
function createdFiles(category: string): string[] {
  return fs.readdirSync(path.join(roleDir(), category)).filter((name) => name.startsWith(`${formatCompactDateTime(new Date(NOW))}-`));
}
const STAMP = formatLocalIso(new Date(NOW));
const DAY = formatLocalDate(new Date(NOW));

/** The role's folder without lock files (their names carry nothing) and the app state. */
function tree(): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshotTree(roleDir())).filter(([name]) => !name.endsWith('.lock')));
}

describe('apply', () => {
  it('writes created, merged, corrected and linked memories, archives the raw items, then empties the inbox', async () => {
    const config = setup();
    const { batch } = collect();
    const rawI3 = fs.readFileSync(path.join(roleDir(), 'inbox', 'I3.md'), 'utf8');
    const applied = await applyNewPlan(config, batch, PLAN_ID, plan(batch), existingById(collect().catalog.snapshot()));
    expect(applied).toMatchObject({ processed: 4, created: 2, merged: 1, discarded: 1, corrected: 1, bondsAdded: 1 });

    // Created: ids derived from the plan, the plan's fields, symmetric links.
    const [skillFile] = createdFiles('skill');
    const [warmFile] = createdFiles('important');
    expect(skillFile).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}\.md$/);
    const n1 = memoryAt(`skill/${skillFile}`);
    const n2 = memoryAt(`important/${warmFile}`);
    expect(applied.createdIds).toEqual([n1.id, n2.id]);
    expect(n1).toMatchObject({ summary: '修好 CI', memory_type: 'procedural', retention_stage: 'long_term', links: ['E1'], hits: 0 });
    // created: when its source was captured (issue 11); updated: this consolidation.
    expect(n1).toMatchObject({ created: formatLocalIso(new Date('2026-11-29T10:00:00+08:00')), updated: STAMP });
    expect(n2).toMatchObject({ created: formatLocalIso(new Date('2026-11-29T10:03:00+08:00')), updated: STAMP });
    expect(n1.extra).toMatchObject({ sources: ['I1'], sleep_plan: `${PLAN_ID}#n1` });
    expect(n2.links).toEqual(['E2']);

    // Merged: absolute fields; strength, created, first_seen and unknown keys kept; hits +1 (a
    // dedupe merge, the role skill); links a union.
    const e1 = memoryAt('important/E1.md');
    expect(e1).toMatchObject({
      summary: '部署流程',
      priority: 4,
      hits: 3,
      strength: 77,
      created: '2026-11-01T09:00:00+08:00',
      retention_stage: 'long_term',
      sleep_stage: 'nrem-rem',
    });
    expect(e1.body).toBe('部署流程要先跑測試。記號-900。\n部署前要清快取。記號-1。');
    expect(e1.updated).toBe(STAMP);
    expect(e1.extra).toMatchObject({ first_seen: '2026-10-01', custom_key: 'keep me', sources: ['I2'] });
    expect(e1.links).toEqual(['E2', n1.id]);
    expect(memoryAt('important/E2.md').links).toEqual(['E1', n2.id]);

    // Corrected (PM-4): the flag cleared, the correction stamped.
    const d1 = memoryAt('daily/D1.md');
    expect(d1.body).toContain('原本以為');
    expect(d1.extra.needs_correction).toBeUndefined();
    expect(d1.extra.probe_corrected).toBe(STAMP);

    // Inbox gone, raw bytes archived under today's date.
    expect(fs.readdirSync(path.join(roleDir(), 'inbox'))).toEqual([]);
    const archives = readArchives(path.join(roleDir(), 'archive', 'raw'));
    expect([...archives.keys()].sort()).toEqual(['I1', 'I2', 'I3', 'I4'].map((id) => `${DAY}/${id}.md.gz`));
    expect(archives.get(`${DAY}/I3.md.gz`)).toBe(rawI3);

    // Bond, digest, state, applied record.
    expect(readBonds(home.memoryHome, ROLE).map((b) => [b.direction, b.text])).toEqual([['user-to-role', '有妳真好']]);
    const digests = readDigests(home.memoryHome, ROLE);
    expect(digests).toHaveLength(1);
    expect(digests[0]).toMatchObject({
      summary: '整理了 4 則：新增 2、合併 1、捨棄 1。',
      applied: { created: 2, merged: 1, discarded: 1, corrected: 1, bonds: 1 },
    });
    expect(readMemoryState(home.memoryHome, ROLE).state.last_sleep_digest).toBe('整理了 4 則：新增 2、合併 1、捨棄 1。');
    expect(listPending(home.memoryHome, ROLE).plans).toEqual([]);
    expect(fs.existsSync(path.join(appliedDir(home.memoryHome, ROLE), planFileName(PLAN_ID)))).toBe(true);
  });

  it('applying the same recorded plan again changes nothing: one digest, one bond, same bytes', async () => {
    const config = setup();
    const { batch, catalog } = collect();
    await applyNewPlan(config, batch, PLAN_ID, plan(batch), existingById(catalog.snapshot()));
    const before = tree();
    // Put the applied record back as pending, as if the last rename had not happened, and replay it.
    const appliedFile = path.join(appliedDir(home.memoryHome, ROLE), planFileName(PLAN_ID));
    const recorded = JSON.parse(fs.readFileSync(appliedFile, 'utf8')) as PendingPlan;
    writePending(home.memoryHome, ROLE, recorded);
    fs.rmSync(appliedFile);
    const again = await replayPendingPlans(config, ROLE, new MemoryCatalog(home.memoryHome, ROLE));
    expect(again.applied).toHaveLength(1);
    expect(tree()).toEqual(before);
    expect(readDigests(home.memoryHome, ROLE)).toHaveLength(1);
    expect(countOf(fs.readFileSync(path.join(roleDir(), 'BONDS.md'), 'utf8'), '有妳真好')).toBe(1);
    // And a fresh record of a used plan id is refused outright.
    await expect(applyNewPlan(config, batch, PLAN_ID, plan(batch), new Map())).rejects.toThrow(/already recorded/);
    expect(tree()).toEqual(before);
  });

  it('a crash after any step, then a replay, ends in exactly the files of an uninterrupted apply', async () => {
    const config = setup();
    const steps: string[] = [];
    {
      const { batch, catalog } = collect();
      await applyNewPlan(config, batch, PLAN_ID, plan(batch), existingById(catalog.snapshot()), {
        afterStep: (step) => void steps.push(step),
      });
    }
    const reference = tree();
    home.cleanup();
    expect(steps[0]).toBe('pending');
    expect(steps).toContain('flush');
    expect(steps.at(-1)).toBe('applied');
    expect(steps.length).toBeGreaterThan(12);

    for (let k = 0; k < steps.length; k++) {
      const crashConfig = setup();
      const { batch, catalog } = collect();
      let n = 0;
      const crash = {
        afterStep: () => {
          if (n++ === k) throw new Error(`simulated crash after ${steps[k]}`);
        },
      };
      await expect(applyNewPlan(crashConfig, batch, PLAN_ID, plan(batch), existingById(catalog.snapshot()), crash)).rejects.toThrow(
        /simulated crash/,
      );
      const stillPending = listPending(home.memoryHome, ROLE).plans.length;
      expect(stillPending, `after ${steps[k]}`).toBe(k === steps.length - 1 ? 0 : 1);
      // The inbox items stay until their memories and archives are written.
      if (steps.indexOf('flush') > k) expect(fs.readdirSync(path.join(roleDir(), 'inbox')), `after ${steps[k]}`).toHaveLength(4);
      await replayPendingPlans(crashConfig, ROLE, new MemoryCatalog(home.memoryHome, ROLE));
      expect(tree(), `crash after step ${k} (${steps[k]})`).toEqual(reference);
      home.cleanup();
    }
  });

  it('refuses a plan that loses an item or merges an emotional memory into another type, touching nothing', async () => {
    const config = setup();
    const { batch, catalog } = collect();
    const before = tree();
    const lossy = { ...plan(batch), discard: [] };
    await expect(applyNewPlan(config, batch, PLAN_ID, lossy, existingById(catalog.snapshot()))).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof PlannerError && error.kind === 'incomplete' && /I3 is neither kept, merged nor discarded/.test(error.message),
    );
    const good = plan(batch);
    const emotionalIntoSemantic: SleepPlan = {
      ...good,
      create: good.create.filter((c) => c.key !== 'n2'),
      link: [],
      merge: [{ ...good.merge[0]!, sources: ['I2', 'I4'] }],
    };
    await expect(applyNewPlan(config, batch, PLAN_ID, emotionalIntoSemantic, existingById(catalog.snapshot()))).rejects.toThrow(
      /emotional memories are never merged/,
    );
    await expect(applyNewPlan(config, batch, PLAN_ID, { not: 'a plan' }, existingById(catalog.snapshot()))).rejects.toSatisfy(
      (error: unknown) => error instanceof PlannerError && error.kind === 'invalid' && error.diagnostics.batchSize === 4,
    );
    expect(tree()).toEqual(before);
  });

  it('a replay rewrites a created memory a power cut left empty, and keeps an unrelated file of the same name', async () => {
    const config = setup();
    const { batch, catalog } = collect();
    let pending: PendingPlan | undefined;
    await expect(
      applyNewPlan(config, batch, PLAN_ID, plan(batch), existingById(catalog.snapshot()), {
        afterStep: (step) => {
          if (step === 'create:n1') {
            pending = listPending(home.memoryHome, ROLE).plans[0];
            throw new Error('power cut');
          }
        },
      }),
    ).rejects.toThrow('power cut');
    const [skillFile] = createdFiles('skill');
    fs.writeFileSync(path.join(roleDir(), 'skill', skillFile!), ''); // what delayed allocation can leave
    // Another memory already sits where n2 would go (same time, same 6-hex hash: a collision).
    const hash = createHash('sha256').update(`${PLAN_ID}#n2`).digest('hex');
    const stranger = `${formatCompactDateTime(new Date(NOW))}-${hash.slice(0, 6)}`;
    const strangerFile = writeExisting(home.memoryHome, stranger, {}, '別人的記憶。');
    const strangerText = fs.readFileSync(strangerFile, 'utf8');
    expect(pending).toBeDefined();
    const applied = await applyPending(config, ROLE, pending!, existingById(new MemoryCatalog(home.memoryHome, ROLE).snapshot()));
    expect(memoryAt(`skill/${skillFile}`).body).toContain('記號-0。');
    expect(fs.readFileSync(strangerFile, 'utf8')).toBe(strangerText);
    expect(applied.createdIds[1]).toBe(`${formatCompactDateTime(new Date(NOW))}-${hash.slice(0, 8)}`);
    expect(memoryAt(`important/${applied.createdIds[1]}.md`).body).toContain('記號-2。');
    expect(fs.existsSync(pendingFile(home.memoryHome, ROLE, PLAN_ID))).toBe(false);
  });
});

describe('created and updated of consolidated memories (issue 11)', () => {
  // The night's consolidation at 03:00 local time, whatever the zone the test runs in.
  const PLAN_TIME = new Date(2026, 11, 2, 3, 0, 0);
  const local = (...parts: [number, number, number, number, number]) => formatLocalIso(new Date(...parts));

  function night(): { config: KiokuConfig; batch: CollectedBatch; existing: ReturnType<typeof existingById> } {
    home = makeTempHome({ KIOKU_NOW: formatLocalIso(PLAN_TIME) });
    writeExisting(home.memoryHome, 'E1', { memory_type: 'semantic', tags: ['部署'] }, '部署流程要先跑測試。');
    writeInbox(home.memoryHome, { id: 'A', body: '睡前說的話。', created: local(2026, 11, 1, 23, 50) });
    writeInbox(home.memoryHome, { id: 'B', body: '半夜又補一句。', created: local(2026, 11, 2, 1, 10) });
    writeInbox(home.memoryHome, { id: 'C', body: '時鐘快了一天的機器寫的。', created: local(2026, 11, 3, 10, 0) });
    writeInbox(home.memoryHome, { id: 'D', body: '三週前的小事。', created: local(2026, 10, 11, 10, 0) });
    writeInbox(home.memoryHome, { id: 'M', body: '部署前要清快取。', memory_type: 'semantic', created: local(2026, 11, 1, 22, 0) });
    const catalog = new MemoryCatalog(home.memoryHome, ROLE);
    const batch = collectBatch(ROLE, catalog.snapshot(), { items: 10, chars: 12_000, existing: 120 })!;
    return { config: home.config(), batch, existing: existingById(catalog.snapshot()) };
  }

  const create = (key: string, sources: string[], category: 'daily' | 'important' = 'important') => ({
    key,
    category,
    summary: key,
    body: `${key} 的內容。`,
    tags: [],
    priority: 2,
    cues: [],
    memory_type: 'semantic' as const,
    declarative: 'explicit' as const,
    relevance: [],
    expires: '',
    links: [],
    sources,
  });

  it('a created memory keeps its earliest source time; a merge keeps the target created; both are updated now', async () => {
    const { config, batch, existing } = night();
    const applied = await applyNewPlan(
      config,
      batch,
      PLAN_ID,
      {
        v: 1,
        id: PLAN_ID,
        role: ROLE,
        planner: 'test',
        batch: batch.items.map((item) => item.id),
        create: [create('late', ['B', 'A']), create('skewed', ['C']), create('old', ['D'], 'daily')],
        merge: [
          {
            target: 'E1',
            summary: '部署流程',
            body: '部署流程要先跑測試。\n部署前要清快取。',
            tags: ['部署'],
            cues: [],
            priority: 3,
            links: [],
            sources: ['M'],
          },
        ],
        link: [],
        bonds: [],
        discard: [],
        corrections: [],
        digest: '整理了 5 則。',
      },
      existing,
    );
    const [late, skewed, old] = applied.createdIds.map((id, i) => memoryAt(`${i === 2 ? 'daily' : 'important'}/${id}.md`));
    const planStamp = formatLocalIso(PLAN_TIME);
    // Said at 23:50: still on 12/01 in the timeline, though consolidated on 12/02.
    expect(late).toMatchObject({ created: local(2026, 11, 1, 23, 50), updated: planStamp });
    expect(formatLocalDate(new Date(late!.created))).toBe('2026-12-01');
    // A source stamped ahead of the clock does not date a memory in the future.
    expect(skewed).toMatchObject({ created: planStamp, updated: planStamp });
    expect(old).toMatchObject({ created: local(2026, 10, 11, 10, 0), updated: planStamp });
    // The merge target: its own created, only updated moves.
    expect(memoryAt('important/E1.md')).toMatchObject({ created: '2026-11-01T09:00:00+08:00', updated: planStamp });

    // FORGET-1 counts "not updated" from the consolidation, not from the source: a three-week-old
    // item is not forgotten the night it becomes a memory, and goes 14 days after it.
    const stored = { ...old!, role: ROLE, path: '' };
    const day = 24 * 3_600_000;
    expect(forgetReason(stored, PLAN_TIME)).toBeUndefined();
    expect(forgetReason(stored, new Date(PLAN_TIME.getTime() + 14 * day - 1_000))).toBeUndefined();
    expect(forgetReason(stored, new Date(PLAN_TIME.getTime() + 14 * day))).toMatch(/daily, not updated for 14 days/);
  });

  it('a plan recorded before sources carried their created gives its memories the plan time', async () => {
    const { config, batch } = night();
    const at = new Date(PLAN_TIME);
    const recorded: PendingPlan = {
      v: 1,
      plan: {
        ...plan({ ...batch, items: batch.items.filter((item) => item.id === 'A') }),
        create: [create('n1', ['A'])],
        merge: [],
        link: [],
        bonds: [],
        discard: [],
        corrections: [],
      },
      at: formatLocalIso(at),
      atMs: at.getTime(),
      sources: { A: { file: 'inbox/A.md', memory_type: 'episodic' } },
      warnings: [],
    };
    writePending(home.memoryHome, ROLE, recorded);
    const replayed = await replayPendingPlans(config, ROLE, new MemoryCatalog(home.memoryHome, ROLE));
    expect(replayed.applied).toHaveLength(1);
    expect(memoryAt(`important/${replayed.applied[0]!.createdIds[0]}.md`).created).toBe(formatLocalIso(at));
  });
});
