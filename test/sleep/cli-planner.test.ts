import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatLocalIso } from '../../main/core/platform/config/clock.js';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { createCliPlanner } from '../../main/core/engine/sleep/cli-planner/index.js';
import { runSleep } from '../../main/core/engine/sleep/run-sleep.js';
import { PlannerError, sleepPlanSchema, type CollectedBatch } from '../../main/core/engine/sleep/sleep-plan.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL } from '../cli/role-test-fixtures.js';
import { isAlive } from '../capture/capture-test-helpers.js';
import { waitFor } from '../ipc/daemon-kit.js';
import { fakePlanner, plannerCalls } from './fake-planner.js';
import { writeInbox } from './sleep-fixtures.js';

const ROLE = 'ENGINEER01';
const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

function batchOf(ids: string[], existing: CollectedBatch['existing'] = []): CollectedBatch {
  const items = ids.map((id, i) => ({
    id,
    path: `/nowhere/${id}.md`,
    summary: `第 ${i + 1} 則：部署前先跑 e2e`,
    body: `主旨：部署前先跑 e2e\n細節：第 ${i + 1} 則的內容。`,
    tags: ['部署'],
    cues: ['e2e'],
    priority: 3,
    memory_type: 'procedural',
    relevance: ['future'],
    created: '2026-12-01T10:00:00+08:00',
  }));
  return { role: ROLE, items, existing, left: 2, header: `本批 ${ids.length} 則，另有 2 則留待下批`, materialChars: 1234 };
}

const IDS = ['20261201-100000-aaaa', '20261201-100100-bbbb', '20261201-100200-cccc'];
const EXISTING: CollectedBatch['existing'] = [
  {
    id: '20261101-090000-dddd',
    category: 'skill',
    summary: '部署流程',
    tags: ['部署'],
    cues: [],
    priority: 4,
    memory_type: 'procedural',
    links: [],
    gist: '先測再部署',
  },
  {
    id: '20261102-090000-eeee',
    category: 'important',
    summary: '以為使用者喜歡週一早會',
    tags: [],
    cues: [],
    priority: 3,
    memory_type: 'preference',
    links: [],
    gist: '',
    needsCorrection: true,
    correctionNote: '其實是討厭週一早會',
  },
];

let home: TempHome;
beforeEach(() => {
  // Local time (no offset), in the zone the test runs in: "今天" in the prompt is 2026-12-02 in
  // every zone. 07:00 is still 2026-12-01 in UTC in Taipei and Kiritimati, so a UTC date shows.
  home = makeTempHome({ KIOKU_NOW: '2026-12-02T07:00:00' });
  fs.writeFileSync(path.join(home.roleHome, `${ROLE}.identity.md`), SPLIT_ENGINEER_IDENTITY);
  fs.writeFileSync(path.join(home.roleHome, `${ROLE}.soul.md`), SPLIT_ENGINEER_SOUL);
});
afterEach(() => home.cleanup());

function setup(how: Parameters<typeof fakePlanner>[1], extra: NodeJS.ProcessEnv = {}, cli: 'claude' | 'codex' | 'gemini' = 'claude') {
  const fake = fakePlanner(home.root, how, { names: [cli] });
  const config = home.config({ ...fake.env, ...extra });
  return { fake, planner: createCliPlanner(config, { cli, command: fake.command(cli) }) };
}

async function failure(promise: Promise<unknown>): Promise<PlannerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlannerError);
  return error as PlannerError;
}

describe('CLI planner: accepted plans', () => {
  it('a valid plan from claude: filled in by us, schema-valid, every inbox id accounted for', async () => {
    const { planner } = setup('valid');
    expect(planner.name).toBe('cli:claude');
    const plan = await planner.plan(batchOf(IDS), 'plan-1');
    expect(sleepPlanSchema.parse(plan)).toEqual(plan);
    expect(plan).toMatchObject({ v: 1, id: 'plan-1', role: ROLE, planner: 'cli:claude', batch: IDS });
    expect(plan.create.flatMap((c) => c.sources).sort()).toEqual([...IDS].sort());
    expect(plan.create[0]!.summary).toContain('部署前先跑 e2e');
  });

  it('a plan inside the claude envelope, a ```json fence and prose around it', async () => {
    const plan = await setup('fenced').planner.plan(batchOf(IDS), 'plan-2');
    expect(plan.create).toHaveLength(3);
  });

  it('gemini {response} and codex plain text', async () => {
    for (const cli of ['gemini', 'codex'] as const) {
      const plan = await setup('valid', {}, cli).planner.plan(batchOf(IDS.slice(0, 1)), `plan-${cli}`);
      expect(plan.planner).toBe(`cli:${cli}`);
      expect(plan.batch).toEqual(IDS.slice(0, 1));
    }
  });
});

describe('CLI planner through a consolidation: the dates of what it creates (issue 11)', () => {
  it('a memory made from an item said at 23:50 keeps that time as created; updated is the consolidation', async () => {
    const said = formatLocalIso(new Date(2026, 11, 1, 23, 50));
    writeInbox(home.memoryHome, { id: '20261201-235000-aaaa', body: '睡前想到：部署前先跑 e2e。', created: said }, ROLE);
    const fake = fakePlanner(home.root, 'valid');
    const result = await runSleep(home.config({ ...fake.env, ROLE_CLI: 'claude' }), { role: ROLE, reason: 'manual', force: true });
    expect(result.roles[0]).toMatchObject({ ok: true, created: 1, planner: 'cli:claude' });
    const made = loadRoleMemories(home.memoryHome, ROLE).memories.filter((m) => m.category !== 'inbox');
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ created: said, updated: formatLocalIso(new Date(2026, 11, 2, 7, 0)) });
  });
});

describe('CLI planner: merges (a merge writes the whole body; MEM-5)', () => {
  it('a target shown with its full body may be merged into; the prompt carries that body', async () => {
    const { fake, planner } = setup('merge-first');
    const withBody = [{ ...EXISTING[0]!, body: '主旨：先測再部署\n細節：staging 綠燈才上 production。' }, EXISTING[1]!];
    const plan = await planner.plan(batchOf(IDS, withBody), 'p');
    expect(plan.merge).toEqual([expect.objectContaining({ target: EXISTING[0]!.id, sources: [IDS[0]] })]);
    expect(plan.create).toHaveLength(2);
    const { prompt } = plannerCalls(fake.log)[0]!;
    expect(prompt).toContain('部署流程｜標籤：部署｜可合併，全文：\n    主旨：先測再部署\n    細節：staging 綠燈才上 production。');
  });

  it('a target known only by its gist is not merged into: the text becomes a memory linked to it', async () => {
    const plan = await setup('merge-first').planner.plan(batchOf(IDS, EXISTING), 'p');
    expect(plan.merge).toEqual([]);
    expect(plan.create.find((c) => c.sources[0] === IDS[0])).toMatchObject({ memory_type: 'procedural', links: [EXISTING[0]!.id] });
    expect(plan.create.flatMap((c) => c.sources).sort()).toEqual([...IDS].sort());
  });
});

describe('CLI planner: each failure is a PlannerError of its kind, with SLEEP-5 diagnostics', () => {
  it.each([
    ['truncated', 'truncated', /truncated JSON/],
    ['execution', 'execution', /execution error.*code 1.*Execution error/],
    ['invalid', 'invalid', /invalid JSON/],
    ['schema', 'invalid', /does not match the schema/],
    ['missing', 'incomplete', new RegExp(`inbox item ${IDS[2]} is neither kept, merged nor discarded`)],
    ['overlimit', 'truncated', /over ROLE_SLEEP_OUTPUT_LIMIT \(8000\)/],
  ] as const)('%s → %s', async (mode, kind, message) => {
    const error = await failure(setup(mode).planner.plan(batchOf(IDS), 'plan-x'));
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
    expect(error.diagnostics).toMatchObject({ materialChars: 1234, batchSize: 3 });
    expect(error.diagnostics.outputChars).toBeGreaterThan(0);
    expect(error.diagnostics.outputHead.length).toBeGreaterThan(0);
    expect(error.diagnostics.outputHead.length).toBeLessThanOrEqual(200 + 40);
    // The message carries the diagnostics, so a log line alone is enough to diagnose.
    expect(error.message).toContain('material 1234 chars, batch 3 item(s)');
    expect(error.message).toContain(`output ${error.diagnostics.outputChars} chars`);
  });

  it('execution and truncated messages are told apart (SLEEP-5)', async () => {
    const execution = await failure(setup('execution').planner.plan(batchOf(IDS), 'p'));
    const truncated = await failure(setup('truncated').planner.plan(batchOf(IDS), 'p'));
    expect(execution.message).not.toMatch(/JSON/);
    expect(truncated.message).not.toMatch(/execution/i);
    expect(execution.diagnostics.outputHead).toBe('Execution error');
  });

  it('the output head is redacted', async () => {
    const error = await failure(setup('leaky').planner.plan(batchOf(IDS), 'p'));
    expect(error.kind).toBe('invalid');
    expect(error.diagnostics.outputHead).not.toContain('hunter2');
    expect(error.message).not.toContain('hunter2');
    expect(error.diagnostics.outputHead).toContain('REDACTED');
  });

  // The fake in "slow" mode answers only once its gate file exists, which these tests never
  // create: whatever the machine's speed, the run can only end by the timeout or the abort, and
  // before the fake's plan is printed. The fake, if it got as far as starting, is killed.
  it('a CLI slower than ROLE_SLEEP_TIMEOUT is killed → timeout', async () => {
    const { fake, planner } = setup('slow', { ROLE_SLEEP_TIMEOUT: '1', FAKE_PLANNER_GATE: path.join(home.root, 'never') });
    const error = await failure(planner.plan(batchOf(IDS), 'p'));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('within 1 s (ROLE_SLEEP_TIMEOUT)');
    for (const call of plannerCalls(fake.log))
      await waitFor(() => !isAlive(call.pid), `the timed-out fake planner (pid ${call.pid}) to be killed`);
  });

  it('an abort stops the run and rejects with the abort reason, not a planner failure', async () => {
    const controller = new AbortController();
    const { fake, planner } = setup('slow', { FAKE_PLANNER_GATE: path.join(home.root, 'never') });
    const run = planner.plan(batchOf(IDS), 'p', controller.signal).then(
      () => undefined,
      (e: unknown) => e,
    );
    // Abort once the fake is running (it has logged its call), not after a guess at how long that takes.
    const [call] = await waitFor(
      () => (plannerCalls(fake.log).length > 0 ? plannerCalls(fake.log) : undefined),
      'the fake planner to start',
    );
    controller.abort();
    const error = await run;
    expect(error).not.toBeInstanceOf(PlannerError);
    expect((error as Error).name).toBe('AbortError');
    await waitFor(() => !isAlive(call!.pid), `the aborted fake planner (pid ${call!.pid}) to be killed`);
  });

  it('a CLI that cannot start → execution', async () => {
    const config = home.config();
    const error = await failure(
      createCliPlanner(config, { cli: 'claude', command: path.join(home.root, 'no-such-cli') }).plan(batchOf(IDS), 'p'),
    );
    expect(error.kind).toBe('execution');
    expect(error.message).toContain('could not be started');
  });
});

describe('CLI planner: how the CLI is run (SLEEP-6: no hooks, no transcript, scratch cwd)', () => {
  it('our hooks off, claude flags and ROLE_MODEL, a scratch cwd under the state dir, nothing left in the project', async () => {
    const projectFilesBefore = fs.readdirSync(process.cwd()).sort();
    const { fake, planner } = setup('valid', { ROLE_MODEL: 'claude-test-model' });
    await planner.plan(batchOf(IDS), 'p');
    const [call] = plannerCalls(fake.log);
    expect(call!.env).toEqual({ ROLE_ENABLED: '0', KIOKU_HOOK_DISABLED: '1' });
    expect(call!.argvHead).toEqual([
      '-p',
      '--output-format',
      'json',
      '--settings',
      '{"disableAllHooks":true}',
      '--no-session-persistence',
      '--model',
      'claude-test-model',
    ]);
    const scratch = path.join(home.memoryHome, '.kioku', 'sleep-planner');
    expect(fs.realpathSync(call!.cwd)).toBe(fs.realpathSync(scratch));
    expect(fs.realpathSync(call!.cwd)).not.toBe(fs.realpathSync(process.cwd()));
    // What the CLI wrote beside itself stayed in the scratch folder.
    expect(fs.existsSync(path.join(scratch, 'fake-session.jsonl'))).toBe(true);
    expect(fs.readdirSync(process.cwd()).sort()).toEqual(projectFilesBefore);
    // Nothing was written into the role's memory folder by planning.
    expect(fs.existsSync(path.join(home.memoryHome, ROLE))).toBe(false);
  });

  it('the prompt: batch header, inbox items, existing index with the correction mark, role relationship, rules; secrets redacted', async () => {
    const { fake, planner } = setup('valid');
    const batch = batchOf(IDS, EXISTING);
    batch.items[0]!.body += `\ntoken=${SECRET}`;
    batch.items[1]!.summary = '我們的暗號是 {{INBOX}}';
    await planner.plan(batch, 'p');
    const { prompt } = plannerCalls(fake.log)[0]!;
    expect(prompt).toContain('本批 3 則，另有 2 則留待下批');
    for (const id of IDS) expect(prompt).toContain(`#### 待整理 id：${id}`);
    expect(prompt).toContain('- 20261101-090000-dddd [skill/procedural/p4] 部署流程');
    expect(prompt).toContain(
      '20261102-090000-eeee [important/preference/p3] ⚠需更正（使用者說：其實是討厭週一早會） 以為使用者喜歡週一早會',
    );
    expect(prompt).toContain('使用者的同事，叫使用者「老大」。');
    expect(prompt).toContain('角色「小豹」（ID：ENGINEER01）');
    expect(prompt).toContain('`memory_type` 不同的記憶不互相 merge，改用 links 關聯');
    expect(prompt).toContain('原本以為…後來發現…');
    expect(prompt).toContain('今天是 2026-12-02');
    expect(prompt).not.toContain(SECRET);
    expect(prompt).toContain('我們的暗號是 {{INBOX}}');
    expect(prompt.replace('{{INBOX}}', '')).not.toMatch(/\{\{[A-Z_]+\}\}/);
  });
});
