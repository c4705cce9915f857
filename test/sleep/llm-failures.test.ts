import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { writeMemory } from '../../main/core/store/memory/memory-writer.js';
import { runSleep } from '../../main/core/engine/sleep/run-sleep.js';
import { makeTempHome, snapshotTree, type TempHome } from '../helpers/temp-home.js';
import { SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL } from '../cli/role-test-fixtures.js';
import { fakePlanner, plannerCalls, type FakePlannerScript } from './fake-planner.js';

/**
 * MUST SHOW (issue #4): "an LLM failure of each kind leaves every inbox item in place, and the
 * retry/halving then succeeds" — SLEEP-5. Real child processes: the
 * ROLE_CLI=claude planner runs the fake CLI, which records the inbox folder at every call, so
 * "still in place" is checked between attempts, not only at the end.
 */
const ROLE = 'ENGINEER01';
const TEXTS = ['部署前先跑 e2e 測試', '使用者喜歡簡短的回覆', '今天一起修好了登入的錯誤，很開心', '下週要升級 Node 到 22 版'];

let home: TempHome;
let inboxDir: string;
beforeEach(async () => {
  home = makeTempHome({ KIOKU_NOW: '2026-12-02T12:00:00+08:00' });
  fs.writeFileSync(path.join(home.roleHome, `${ROLE}.identity.md`), SPLIT_ENGINEER_IDENTITY);
  fs.writeFileSync(path.join(home.roleHome, `${ROLE}.soul.md`), SPLIT_ENGINEER_SOUL);
  const config = home.config();
  for (const text of TEXTS) {
    await writeMemory(config, ROLE, {
      category: 'inbox',
      summary: text,
      body: `主旨：${text}`,
      memory_type: 'semantic',
      retention_stage: 'working',
      sleep_stage: 'encoding',
    });
  }
  inboxDir = path.join(home.memoryHome, ROLE, 'inbox');
});
afterEach(() => home.cleanup());

const inboxFiles = () =>
  fs
    .readdirSync(inboxDir)
    .filter((f) => f.endsWith('.md'))
    .sort();

async function sleepWith(script: FakePlannerScript, extra: NodeJS.ProcessEnv = {}) {
  const fake = fakePlanner(home.root, script, { inbox: inboxDir });
  const config = home.config({ ...fake.env, ROLE_CLI: 'claude', ...extra });
  const result = await runSleep(config, { role: ROLE, reason: 'manual', force: true });
  return { result: result.roles[0]!, calls: plannerCalls(fake.log) };
}

/** The fake's failure mode per PlannerError kind; the timeout runs with ROLE_SLEEP_TIMEOUT=1. */
const KINDS = [
  { kind: 'execution', mode: 'execution', env: {} },
  { kind: 'truncated', mode: 'truncated', env: {} },
  { kind: 'invalid', mode: 'invalid', env: {} },
  { kind: 'timeout', mode: 'slow', env: { ROLE_SLEEP_TIMEOUT: '1' } },
] as const;

describe('an LLM failure of each kind leaves every inbox item in place; retry and halving then succeed', () => {
  it.each(KINDS)('$kind: batches of 4 fail (first try and retry), halved to 2 they succeed', async ({ mode, env }) => {
    const all = inboxFiles();
    expect(all).toHaveLength(4);
    const { result, calls } = await sleepWith({ maxBatch: 2, bigMode: mode, default: 'valid' }, env);

    // 4 (fails) → 4 again (the retry, fails) → halved: 2 (succeeds) → 2 (succeeds).
    expect(calls.map((c) => [c.ids.length, c.mode])).toEqual([
      [4, mode],
      [4, mode],
      [2, 'valid'],
      [2, 'valid'],
    ]);
    // Between the attempts: every inbox item still there, the same batch offered again.
    expect(calls[0]!.inbox).toEqual(all);
    expect(calls[1]!.inbox).toEqual(all);
    expect(calls[1]!.ids).toEqual(calls[0]!.ids);
    expect(calls[2]!.inbox).toEqual(all);
    // Only what the first successful plan consumed left the inbox before the next call.
    expect(calls[3]!.inbox).toEqual(all.filter((f) => !calls[2]!.ids.includes(f.replace(/\.md$/, ''))));

    expect(result).toMatchObject({ ok: true, processed: 4, created: 4, left: 0, planner: 'cli:claude', batches: 2 });
    expect(inboxFiles()).toEqual([]);
    const consolidated = loadRoleMemories(home.memoryHome, ROLE).memories.filter((m) => m.category !== 'inbox');
    expect(consolidated.map((m) => m.summary).sort()).toEqual(TEXTS.map((t) => `整理：${t}`).sort());
    // Recursion safety held on every call (SLEEP-6).
    for (const call of calls) expect(call.env).toEqual({ ROLE_ENABLED: '0', KIOKU_HOOK_DISABLED: '1' });
  });

  it('an Execution error once: the retry of the same batch succeeds, no halving needed', async () => {
    const { result, calls } = await sleepWith({ calls: ['execution'], default: 'valid' });
    expect(calls.map((c) => [c.ids.length, c.mode])).toEqual([
      [4, 'execution'],
      [4, 'valid'],
    ]);
    expect(calls[1]!.inbox).toEqual(calls[0]!.inbox);
    expect(result).toMatchObject({ ok: true, processed: 4, batches: 1, left: 0 });
  });

  it.each(KINDS.filter((k) => k.kind !== 'timeout'))(
    '$kind on every call: 4 → 4 → 2 → 2 → 1 → 1, then the run stops with the inbox byte for byte as it was',
    async ({ kind, mode }) => {
      const before = snapshotTree(path.join(home.memoryHome, ROLE));
      const { result, calls } = await sleepWith({ default: mode });
      expect(calls.map((c) => c.ids.length)).toEqual([4, 4, 2, 2, 1, 1]);
      for (const call of calls) expect(call.inbox).toHaveLength(4);
      expect(result).toMatchObject({ ok: false, processed: 0, left: 4 });
      // SLEEP-5's diagnostics, and the kind told apart in words.
      expect(result.error).toContain(`(${kind})`);
      expect(result.error).toMatch(/material \d+ chars/);
      expect(result.error).toMatch(/output \d+ chars/);
      expect(result.error).toContain('batch 1 item(s)');
      expect(result.error).toContain('output starts');
      expect(result.error).toContain(kind === 'execution' ? 'execution error' : `${kind} JSON`);
      // Nothing consolidated, archived or removed: the role's memory folder is unchanged except
      // for bookkeeping outside the inbox (state.json, logs).
      const after = snapshotTree(path.join(home.memoryHome, ROLE));
      const inboxOnly = (tree: Record<string, string>) =>
        Object.fromEntries(Object.entries(tree).filter(([file]) => file.startsWith('inbox/')));
      expect(inboxOnly(after)).toEqual(inboxOnly(before));
      expect(Object.keys(after).filter((file) => /^(important|interest|news|skill|daily|other|archive)\//.test(file))).toEqual([]);
    },
  );
});
