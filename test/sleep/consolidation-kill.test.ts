import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDigests } from '../../main/core/store/memory/digests.js';
import { parseMemory } from '../../main/core/store/memory/memory-file.js';
import { listPending } from '../../main/core/engine/sleep/pending-plans.js';
import type { SleepResult } from '../../main/core/engine/sleep/sleep-result.js';
import { bundleEntry } from '../helpers/bundle-entry.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { countOf, fateOf, readArchives, readConsolidated, ROLE, writeExisting, writeInbox } from './sleep-fixtures.js';
import { guardChild } from '../helpers/child-guard.js';

/**
 * The must-show: 20 consolidations, each in a real child process killed with SIGKILL at a
 * random moment of its work, each followed by a run to completion. After every round: no inbox
 * item lost (each one's text is in exactly one memory, or — discarded — only in archive/raw), none
 * applied twice (one archive copy, one digest line, at most one bond, one created memory per
 * plan key), and nothing left pending.
 *
 * The kill moments come from a seeded generator; the seed is printed, and KIOKU_KILL_SEED=<n>
 * replays the same moments (the machine's speed still decides what they hit).
 */
const ROUNDS = 20;
const ITEMS_PER_ROUND = 6;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** ms from `ready` to exit (undefined when it never got ready). */
  workMs?: number;
}

/** Run the child; when `killAfter` is given, SIGKILL it that many ms after it said `ready`. */
function runChild(script: string, env: NodeJS.ProcessEnv, killAfter?: number): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    // Killed at its deadline (a hung consolidation fails the round instead of the suite) and at
    // the end of the test (child-guard.ts).
    const child = guardChild(spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] }), 120_000);
    let stdout = '';
    let stderr = '';
    let readyAt: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (readyAt === undefined && stdout.includes('ready\n')) {
        readyAt = performance.now();
        if (killAfter !== undefined) timer = setTimeout(() => child.kill('SIGKILL'), killAfter);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ...(readyAt !== undefined ? { workMs: performance.now() - readyAt } : {}) });
    });
  });
}

let home: TempHome;
let script: string;
beforeAll(() => {
  script = bundleEntry('test/sleep/consolidation-child.ts');
});
afterAll(() => home?.cleanup());

function roleDir(): string {
  return path.join(home.memoryHome, ROLE);
}

function addRound(round: number): void {
  for (let i = 0; i < ITEMS_PER_ROUND; i++) {
    const n = round * ITEMS_PER_ROUND + i;
    const minute = String(n % 60).padStart(2, '0');
    const hour = String(Math.floor(n / 60)).padStart(2, '0');
    writeInbox(home.memoryHome, {
      id: `K${String(n).padStart(3, '0')}`,
      body: `第 ${n} 件事。記號-${n}。`,
      created: `2026-11-28T${hour}:${minute}:00+08:00`,
    });
  }
}

function checkInvariants(items: number): void {
  expect(fs.readdirSync(path.join(roleDir(), 'inbox')).filter((name) => name.endsWith('.md'))).toEqual([]);
  expect(listPending(home.memoryHome, ROLE).plans).toEqual([]);
  const memories = readConsolidated(roleDir());
  const allMemories = [...memories.values()].join('\n');
  const archives = [...readArchives(path.join(roleDir(), 'archive', 'raw')).values()].join('\n');
  const bonds = fs.existsSync(path.join(roleDir(), 'BONDS.md')) ? fs.readFileSync(path.join(roleDir(), 'BONDS.md'), 'utf8') : '';
  const digestIds = readDigests(home.memoryHome, ROLE).flatMap((d) => (/^整理 (.*)$/m.exec(d.summary)?.[1] ?? '').split(','));
  for (let n = 0; n < items; n++) {
    const marker = `記號-${n}。`;
    const id = `K${String(n).padStart(3, '0')}`;
    expect(countOf(archives, marker), `${marker} in archive/raw`).toBe(1);
    expect(countOf(allMemories, marker), `${marker} in memories`).toBe(fateOf(n) === 'discard' ? 0 : 1);
    expect(countOf(bonds, marker), `${marker} in BONDS.md`).toBeLessThanOrEqual(1);
    expect(
      digestIds.filter((d) => d === id),
      `${id} in DIGESTS.md`,
    ).toHaveLength(1);
  }
  const marks = [...memories.values()].map((text) => parseMemory(text).extra.sleep_plan).filter((mark) => mark !== undefined);
  expect(new Set(marks).size, 'one created memory per plan key').toBe(marks.length);
}

describe('consolidation killed at random moments (kill -9)', () => {
  it(`${ROUNDS} killed runs, each rerun to completion: no inbox item lost, none applied twice`, { timeout: 600_000 }, async () => {
    const seed = Number(process.env.KIOKU_KILL_SEED ?? Date.now() % 2 ** 31);
    process.stdout.write(`consolidation-kill: seed ${seed} (rerun with KIOKU_KILL_SEED=${seed})\n`);
    const random = mulberry32(seed);
    home = makeTempHome({ KIOKU_NOW: '2026-11-30T03:00:00+08:00', ROLE_SLEEP_BATCH: '2' });
    writeExisting(home.memoryHome, 'EPI', { category: 'daily', memory_type: 'episodic', priority: 4 }, '之前的工作紀錄。');

    // How long the work of one round takes here, so the kills spread over it.
    addRound(0);
    const calibration = await runChild(script, home.env);
    expect(calibration.code, calibration.stderr).toBe(0);
    checkInvariants(ITEMS_PER_ROUND);
    const workMs = Math.max(50, calibration.workMs ?? 0);

    const outcomes = { killedMidWork: 0, killedWithPendingPlan: 0, finishedBeforeKill: 0 };
    for (let round = 1; round <= ROUNDS; round++) {
      addRound(round);
      const delay = Math.floor(random() * workMs * 1.1);
      const killed = await runChild(script, home.env, delay);
      if (killed.signal === 'SIGKILL') {
        outcomes.killedMidWork++;
        if (listPending(home.memoryHome, ROLE).plans.length) outcomes.killedWithPendingPlan++;
      } else {
        expect(killed.code, killed.stderr).toBe(0);
        outcomes.finishedBeforeKill++;
      }
      const rerun = await runChild(script, home.env);
      expect(rerun.code, rerun.stderr).toBe(0);
      const result = JSON.parse(rerun.stdout.split('\n').filter(Boolean).at(-1)!) as SleepResult;
      expect(result.roles[0], `round ${round} (kill after ${delay} ms)`).toMatchObject({ id: ROLE, ok: true, left: 0 });
      checkInvariants((round + 1) * ITEMS_PER_ROUND);
    }
    process.stdout.write(`consolidation-kill: work ≈ ${Math.round(workMs)} ms per round; ${JSON.stringify(outcomes)}\n`);
    expect(outcomes.killedMidWork + outcomes.finishedBeforeKill).toBe(ROUNDS);
  });
});
