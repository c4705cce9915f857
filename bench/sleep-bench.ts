import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Memory, MemoryType } from '../common/memory.js';
import { writeFileAtomicSync } from '../main/core/platform/fs/atomic-write.js';
import { fileNameForId, serializeMemory } from '../main/core/store/memory/memory-file.js';
import { ensureRoleMemoryDirs } from '../main/core/store/memory/memory-layout.js';
import { runSleepInWorker } from '../main/core/engine/sleep/run-in-worker.js';
import type { SleepProgress } from '../main/core/engine/sleep/sleep-result.js';
import { round } from './bench-stats.js';
import { seededRandom } from './generate-memories.js';
import { writeBenchResults } from './bench-results.js';
import { benchHomeEnv } from './bench-home-env.js';

/**
 * `npm run bench -- sleep`: 1,000 inbox items consolidated by the local planner in ≤ 5 s on a
 * worker, with no main-loop stall over 50 ms.
 * Design notes: docs/design-notes.md, "bench/sleep-bench.ts".
 */
const ROLE = 'BENCH01';
const TARGET_TOTAL_MS = 5_000;
const TARGET_STALL_MS = 50;

const TOPICS = [
  '部署流程',
  '資料庫索引',
  '測試案例',
  '咖啡',
  '珍珠奶茶',
  '房租',
  '搬家',
  '日文課',
  '健身房',
  '貓咪',
  '備份',
  '快取',
  '設計稿',
  '週報',
  '登山',
  '吉他',
  '報稅',
  '簡報',
];
const ACTS = ['修好了', '討論了', '決定要改', '又提到', '抱怨了', '學會了', '重新整理了', '安排好了'];
const FEELINGS = ['今天真的很累，謝謝你陪我', '有你幫忙真好', '這週壓力好大', '終於放心了', '被主管稱讚很開心', '有點想家'];
const NOISE = ['嗯嗯好', '好喔', '收到', 'OK 謝謝'];
const TYPES: readonly MemoryType[] = ['episodic', 'episodic', 'episodic', 'semantic', 'preference', 'procedural'];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function memory(id: string, category: Memory['category'], fields: Partial<Memory>): Memory {
  const stamp = fields.created ?? '2026-11-20T10:00:00+08:00';
  return {
    id,
    category,
    summary: '',
    tags: [],
    priority: 3,
    cues: [],
    expires: '',
    relevance: [],
    links: [],
    memory_type: 'episodic',
    declarative: 'explicit',
    retention_stage: category === 'inbox' ? 'working' : 'long_term',
    sleep_stage: category === 'inbox' ? 'encoding' : 'nrem-rem',
    created: stamp,
    updated: stamp,
    last_replayed: '',
    hits: 0,
    strength: 60,
    body: '',
    extra: {},
    ...fields,
  };
}

/** Inbox items the way capture writes them, with the repetition a real week has. */
function generateHome(memoryHome: string, items: number, existing: number): void {
  const roleDir = ensureRoleMemoryDirs(memoryHome, ROLE);
  const random = seededRandom(2026);
  const write = (m: Memory) =>
    writeFileAtomicSync(path.join(roleDir, m.category, fileNameForId(m.id)), serializeMemory(m), { durable: false, mkdir: false });
  for (let i = 0; i < existing; i++) {
    const topic = pick(random, TOPICS);
    const category = pick(random, ['important', 'interest', 'skill', 'daily', 'other'] as const);
    const summary = `${topic}：${pick(random, ACTS)}，之後照這個做`;
    write(
      memory(`20261101-000000-e${String(i).padStart(5, '0')}`, category, {
        summary,
        tags: [topic],
        memory_type: pick(random, TYPES),
        body: `主旨：${summary}。\n細節：上次關於${topic}的結論，第 ${i} 則。`,
      }),
    );
  }
  for (let i = 0; i < items; i++) {
    const roll = random();
    const minute = String(i % 60).padStart(2, '0');
    const created = `2026-11-29T${String(8 + (Math.floor(i / 60) % 14)).padStart(2, '0')}:${minute}:00+08:00`;
    const id = `20261129-${String(i).padStart(6, '0')}-in`;
    if (roll < 0.05) {
      write(memory(id, 'inbox', { summary: pick(random, NOISE), body: `使用者表示：${pick(random, NOISE)}`, created }));
    } else if (roll < 0.2) {
      const feeling = pick(random, FEELINGS);
      write(
        memory(id, 'inbox', {
          summary: feeling,
          memory_type: 'emotional',
          relevance: ['emotional'],
          body: `使用者表達的感受：${feeling}（第 ${i} 次）。\n角色當時的回應：我在，慢慢來。`,
          created,
        }),
      );
    } else {
      const topic = pick(random, TOPICS);
      const act = pick(random, ACTS);
      const summary = `${topic}${act}`;
      const body = `使用者表示：我們${act}${topic}，${random() < 0.5 ? '下次要先確認設定' : '記得跑完測試再推'}（第 ${i} 則）。\n角色當時的回應：好，我記下來了。`;
      write(memory(id, 'inbox', { summary, tags: [topic], memory_type: pick(random, TYPES), body, created }));
    }
  }
}

/** The longest main-loop stall while `during` runs: monitorEventLoopDelay and a 5 ms timer's lateness. */
async function probeStalls(during: () => Promise<unknown>): Promise<{ stallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  let worst = 0;
  let expected = performance.now() + 5;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - expected);
    expected = now + 5;
  }, 5);
  histogram.enable();
  try {
    await during();
  } finally {
    histogram.disable();
    clearInterval(timer);
  }
  return { stallMs: Math.max(worst, histogram.max / 1e6) };
}

function table(rows: Array<[string, string]>): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

export async function runSleepBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      items: { type: 'string', default: '1000' },
      existing: { type: 'string', default: '300' },
      keep: { type: 'boolean', default: false },
      'planner-module': { type: 'string' },
    },
  });
  const items = Number(values.items);
  const existing = Number(values.existing);
  if (!Number.isInteger(items) || items < 1 || !Number.isInteger(existing) || existing < 0)
    throw new Error('--items and --existing take whole numbers (e.g. --items 1000 --existing 300)');
  const homeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-sleep-bench-'));
  try {
    const env: NodeJS.ProcessEnv = benchHomeEnv(homeDir, {
      ROLE_CLI: 'local',
      KIOKU_NOW: '2026-11-30T03:00:00',
    });
    fs.mkdirSync(env.ROLE_HOME!, { recursive: true });
    process.stderr.write(`sleep bench: generating ${items} inbox items and ${existing} memories…\n`);
    generateHome(env.ROLE_MEMORY_HOME!, items, existing);

    // The same probe with nothing running first: on a busy machine the OS alone delays an idle
    // thread, and that part of the stall is not the consolidation's.
    const baseline = await probeStalls(() => new Promise((resolve) => setTimeout(resolve, 3_000)));
    process.stderr.write(`sleep bench: idle baseline stall ${round(baseline.stallMs, 1)} ms; consolidating…\n`);

    const histogram = monitorEventLoopDelay({ resolution: 5 });
    let worstLateness = 0;
    let expected = performance.now() + 5;
    const probe = setInterval(() => {
      const now = performance.now();
      worstLateness = Math.max(worstLateness, now - expected);
      expected = now + 5;
    }, 5);
    const cpuBefore = process.cpuUsage();
    let firstProgressMs: number | undefined;
    let batches = 0;
    const started = performance.now();
    histogram.enable();
    const onProgress = (event: SleepProgress) => {
      firstProgressMs ??= performance.now() - started;
      if (event.type === 'batch-applied') batches++;
    };
    let result;
    try {
      result = await runSleepInWorker(
        { env },
        { reason: 'sleep', role: ROLE, force: true },
        { onProgress, ...(values['planner-module'] ? { plannerModule: path.resolve(values['planner-module']) } : {}) },
      );
    } finally {
      histogram.disable();
      clearInterval(probe);
    }
    const totalMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const role = result.roles[0];
    const maxDelayMs = histogram.max / 1e6;
    const stallMs = Math.max(worstLateness, maxDelayMs);
    const ok = Boolean(role?.ok && role.processed === items && role.left === 0);
    const verdicts = [
      {
        label: `${items} inbox items consolidated`,
        pass: ok,
        line: `${ok ? 'PASS' : 'FAIL'}  all ${items} inbox items consolidated${ok ? '' : `: ${JSON.stringify(role)}`}`,
      },
      {
        label: 'total time',
        pass: totalMs <= TARGET_TOTAL_MS,
        line: `${totalMs <= TARGET_TOTAL_MS ? 'PASS' : 'FAIL'}  total ${round(totalMs, 0)} ms (≤ ${TARGET_TOTAL_MS} ms)`,
      },
      {
        label: 'main-loop stall',
        pass: stallMs <= TARGET_STALL_MS,
        line: `${stallMs <= TARGET_STALL_MS ? 'PASS' : 'FAIL'}  longest main-loop stall ${round(stallMs, 1)} ms (≤ ${TARGET_STALL_MS} ms)`,
      },
    ];
    process.stdout.write(
      `\nsleep bench: ${items} inbox items, ${existing} existing memories, planner ${role?.planner ?? '?'} on a worker thread (node ${process.version}, ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')})\n`,
    );
    process.stdout.write(
      `${table([
        ['total (call → result)', `${round(totalMs, 0)} ms`],
        ['worker start → first progress', `${round(firstProgressMs ?? Number.NaN, 0)} ms`],
        ['batches applied', String(batches)],
        [
          'processed / created / merged / discarded / forgotten / left',
          role ? `${role.processed} / ${role.created} / ${role.merged} / ${role.discarded} / ${role.forgotten} / ${role.left}` : '-',
        ],
        ['event-loop delay max (monitorEventLoopDelay)', `${round(maxDelayMs, 1)} ms`],
        ['event-loop delay p99', `${round(histogram.percentile(99) / 1e6, 1)} ms`],
        ['5 ms timer, worst lateness', `${round(worstLateness, 1)} ms`],
        ['same probe, idle baseline (3 s, nothing running)', `${round(baseline.stallMs, 1)} ms`],
        ['CPU time, all threads (user + system)', `${round(cpuMs, 0)} ms`],
      ])}\n\n${verdicts.map((v) => v.line).join('\n')}\n`,
    );
    const file = writeBenchResults('sleep', {
      items,
      existing,
      totalMs: round(totalMs, 1),
      firstProgressMs: firstProgressMs === undefined ? null : round(firstProgressMs, 1),
      batches,
      cpuMs: round(cpuMs, 1),
      eventLoop: {
        maxDelayMs: round(maxDelayMs, 2),
        p99DelayMs: round(histogram.percentile(99) / 1e6, 2),
        worstTimerLatenessMs: round(worstLateness, 2),
        idleBaselineStallMs: round(baseline.stallMs, 2),
      },
      result: role ?? null,
      targets: verdicts.map(({ line: _line, ...v }) => v),
    });
    process.stdout.write(`results: ${file}\n`);
    if (values.keep) process.stdout.write(`kept: ${homeDir}\n`);
    if (verdicts.some((v) => !v.pass)) process.exitCode = 1;
  } finally {
    if (!values.keep) fs.rmSync(homeDir, { recursive: true, force: true });
  }
}
