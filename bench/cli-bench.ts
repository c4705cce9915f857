import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadConfig } from '../main/core/platform/config/config.js';
import { openMemoryIndex } from '../main/core/store/index/memory-index.js';
import { reindexMemories } from '../main/core/store/index/reindex.js';
import { createReindexProgress } from '../main/core/store/index/reindex-progress.js';
import { requestStatus } from '../main/core/platform/ipc/ipc-client.js';
import { percentile, round } from './bench-stats.js';
import { benchRoot, writeBenchResults } from './bench-results.js';
import { benchQueries, generateMemories, seededRandom } from './generate-memories.js';
import { benchHomeEnv, benchUserZone } from './bench-home-env.js';
import { FLOOR_OPEN_INDEX, FLOOR_SOCKET, startCliFloors, type CliFloors } from './cli-floors.js';

/**
 * X-PERF for the `kioku` command (issue 17): wall time of --version, --help and memory recall,
 * daemon down and up, against `node -e 0`. Targets: recall ≤ 1.5× node, --version ≤ 1.2× node.
 * Design notes: docs/design-notes.md, "bench/cli-bench.ts".
 */
const ROLE = 'BENCH01';

interface Row {
  name: string;
  args: (round: number) => string[];
  bin: string;
  phase: 'down' | 'up';
}

interface Sample {
  ms: number;
  code: number | null;
  stderr: string;
}

function spawnTimed(args: string[], env: NodeJS.ProcessEnv): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ ms: performance.now() - started, code, stderr });
    });
  });
}

async function waitReady(env: NodeJS.ProcessEnv, pid: number): Promise<void> {
  const { paths } = loadConfig(env);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const status = await requestStatus(paths, 2_000);
    if (status.ok && status.reply.status.pid === pid && status.reply.status.ready) return;
    if (Date.now() > deadline) throw new Error(`cli bench: daemon ${pid} was not ready within 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The same memories in the other build's home, indexed by that build (`kioku memory reindex`), untimed. */
function indexWithOtherBuild(other: string, otherEnv: NodeJS.ProcessEnv, memoryCount: number): void {
  const { paths } = loadConfig(otherEnv);
  fs.mkdirSync(paths.roleHome, { recursive: true });
  process.stderr.write(`cli bench: the same ${memoryCount} memories for ${other}, indexed by it…\n`);
  generateMemories(paths.memoryHome, ROLE, memoryCount);
  const result = spawnSync(process.execPath, [other, 'memory', 'reindex'], { env: otherEnv, encoding: 'utf8', timeout: 600_000 });
  if (result.status !== 0)
    throw new Error(
      `cli bench: \`${other} memory reindex\` failed (exit ${result.status ?? result.signal}): ${(result.stderr || result.error?.message || '').trim()}`,
    );
}

const SPAN_PREFIX = 'span:';

/** Median of each phase's mark (ms since the process started), per traced command. */
function traceMedians(file: string): Record<string, Record<string, number>> {
  if (!fs.existsSync(file)) return {};
  const by = new Map<string, Array<Record<string, number>>>();
  for (const line of fs.readFileSync(file, 'utf8').trim().split('\n')) {
    const { what, marks, spans } = JSON.parse(line) as { what: string; marks: Record<string, number>; spans?: Record<string, number> };
    // A span (the daemon's own time over the request) is a duration, not a mark: kept apart as `span:<name>`.
    const spanEntries = Object.entries(spans ?? {}).map(([name, ms]) => [`${SPAN_PREFIX}${name}`, ms] as const);
    by.set(what, [...(by.get(what) ?? []), { ...marks, ...Object.fromEntries(spanEntries) }]);
  }
  const out: Record<string, Record<string, number>> = {};
  for (const [what, all] of by) {
    const phases = [...new Set(all.flatMap((marks) => Object.keys(marks)))];
    out[what] = Object.fromEntries(
      phases.map((phase) => [
        phase,
        round(
          percentile(
            all.flatMap((marks) => (phase in marks ? [marks[phase]!] : [])),
            50,
          ),
          1,
        ),
      ]),
    );
  }
  return out;
}

export async function runCliBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      runs: { type: 'string', default: '15' },
      memories: { type: 'string', default: '100000' },
      compare: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  const runs = Number(values.runs);
  const memoryCount = Number(values.memories);
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(memoryCount) || memoryCount < 1)
    throw new Error('--runs and --memories take whole numbers (e.g. --runs 15 --memories 100000)');
  const bin = path.join(benchRoot(), 'bin', 'kioku.js');
  const other = values.compare ? path.resolve(values.compare) : undefined;
  if (other && !fs.existsSync(other)) throw new Error(`--compare: ${other} does not exist (give the bin/kioku.js of another build)`);
  const homeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-cli-bench-'));
  const env: NodeJS.ProcessEnv = benchHomeEnv(homeDir, {
    ...benchUserZone(),
    KIOKU_NO_SCHEDULE: '1',
  });
  // The other build gets a home of its own, the same memories indexed by its own code: one index
  // shared by builds of different schema versions would be rebuilt by each in turn (issue 17).
  const otherHomeDir = other ? fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-cli-bench-other-')) : undefined;
  const otherEnv = otherHomeDir ? benchHomeEnv(otherHomeDir, { ...benchUserZone(), KIOKU_NO_SCHEDULE: '1' }) : undefined;
  const envOf = (kioku: string) => (kioku === other && otherEnv ? otherEnv : env);
  const daemons: Array<ReturnType<typeof spawn>> = [];
  let floors: CliFloors | undefined;
  try {
    const config = loadConfig(env);
    fs.mkdirSync(config.paths.roleHome, { recursive: true });
    process.stderr.write(`cli bench: generating ${memoryCount} memories…\n`);
    generateMemories(config.paths.memoryHome, ROLE, memoryCount);
    const index = openMemoryIndex(config.paths);
    const progress = createReindexProgress(process.stderr, 'cli bench: reindex');
    reindexMemories(index, 'all', progress.update);
    progress.stop();
    index.close();
    if (other && otherEnv) indexWithOtherBuild(other, otherEnv, memoryCount);
    floors = await startCliFloors(homeDir, config.paths.indexFile, benchRoot());
    const floorRows = (phase: 'down' | 'up'): Row[] =>
      floors![phase].map(([name, floorArgs]) => ({ name, args: () => floorArgs, bin: '', phase }));

    const queries = benchQueries(Math.max(runs + 1, 20));
    const recallArgs = (kioku: string) => (round: number) => [
      kioku,
      'memory',
      'recall',
      '--role',
      ROLE,
      '--query',
      queries[(round + 1) % queries.length]!,
    ];
    const builds: Array<[string, string]> = [['', bin], ...(other ? ([['old ', other]] as Array<[string, string]>) : [])];
    const rows: Row[] = [
      { name: 'node -e 0', args: () => ['-e', '0'], bin: '', phase: 'down' },
      ...floorRows('down'),
      ...builds.flatMap(([label, kioku]): Row[] => [
        { name: `${label}kioku --version`, args: () => [kioku, '--version'], bin: kioku, phase: 'down' },
        { name: `${label}kioku --help`, args: () => [kioku, '--help'], bin: kioku, phase: 'down' },
        { name: `${label}kioku memory recall, no daemon`, args: recallArgs(kioku), bin: kioku, phase: 'down' },
        { name: `${label}kioku memory recall, daemon up`, args: recallArgs(kioku), bin: kioku, phase: 'up' },
      ]),
      { name: 'node -e 0 (daemon up)', args: () => ['-e', '0'], bin: '', phase: 'up' },
      ...floorRows('up'),
    ];
    const samples = new Map<string, Sample[]>(rows.map((row) => [row.name, []]));
    const trace = path.join(homeDir, 'trace.jsonl');
    const traces = { down: path.join(homeDir, 'trace-down.jsonl'), up: path.join(homeDir, 'trace-up.jsonl') };
    const runPhase = async (phase: 'down' | 'up') => {
      // One untimed round first (page cache, the index's pages), then `runs` rounds, each row once
      // per round; then a few untimed rounds of this build's recalls with KIOKU_TRACE (a traced run
      // pays for its marks — perf_hooks, about a millisecond — which only one side of a --compare
      // would pay if the timed runs were traced).
      const traceRounds = Math.min(runs, 5);
      for (let round = -1; round < runs + traceRounds; round++) {
        const tracing = round >= runs;
        // A new order each round: a row run right after another (a --help that leaves the
        // machine busy as it exits) or always first would otherwise carry that into its median.
        for (const row of shuffled(
          rows.filter((r) => r.phase === phase),
          round,
        )) {
          const traced = tracing && row.bin === bin && row.name.includes('recall');
          if (tracing && !traced) continue;
          const rowEnv = envOf(row.bin);
          const sample = await spawnTimed(row.args(round), traced ? { ...rowEnv, KIOKU_TRACE: trace } : rowEnv);
          if (traced && fs.existsSync(trace)) {
            fs.appendFileSync(traces[phase], fs.readFileSync(trace));
            fs.rmSync(trace);
          }
          if (round >= 0 && !tracing) samples.get(row.name)!.push(sample);
        }
        if ((round + 1) % 5 === 0 && round >= 0 && !tracing)
          process.stderr.write(`cli bench: daemon ${phase}, ${round + 1}/${runs} rounds\n`);
      }
    };
    await runPhase('down');
    process.stderr.write(`cli bench: starting the daemon${other ? 's' : ''}…\n`);
    for (const kioku of builds.map(([, b]) => b)) {
      const daemon = spawn(process.execPath, [kioku, 'daemon'], { env: envOf(kioku), stdio: ['ignore', 'ignore', 'pipe'] });
      daemons.push(daemon);
      await waitReady(envOf(kioku), daemon.pid!);
    }
    await runPhase('up');

    const baseline = {
      down: percentile(
        samples.get('node -e 0')!.map((s) => s.ms),
        50,
      ),
      up: percentile(
        samples.get('node -e 0 (daemon up)')!.map((s) => s.ms),
        50,
      ),
    };
    const results = rows.map((row) => {
      const times = samples.get(row.name)!.map((s) => s.ms);
      const bad = samples.get(row.name)!.filter((s) => s.code !== 0 || s.stderr !== '').length;
      const medianMs = percentile(times, 50);
      return {
        name: row.name,
        phase: row.phase,
        runs: times.length,
        medianMs: round(medianMs, 1),
        p95Ms: round(percentile(times, 95), 1),
        ratio: round(medianMs / baseline[row.phase]),
        bad,
      };
    });
    const header = ['command', 'median ms', 'p95 ms', '× node -e 0', 'bad'];
    const cells = results.map((r) => [r.name, String(r.medianMs), String(r.p95Ms), `${r.ratio.toFixed(2)}×`, String(r.bad)]);
    const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]!.length)));
    const table = [header, ...cells]
      .map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '))
      .join('\n');
    const find = (name: string) => results.find((r) => r.name === name)!;
    const check = (ok: boolean, text: string) => `${ok ? 'PASS' : 'FAIL'}  ${text}`;
    // Each recall target with the floor under it (cli-floors.ts): the least a Node program answering it must do.
    const recallVerdict = (name: string, floor: string, label: string) =>
      check(
        find(name).ratio <= 1.5,
        `kioku memory recall at ${memoryCount}, ${label}: ${find(name).ratio.toFixed(2)}× node -e 0 (≤ 1.5×); its ${floor} is ${find(floor).ratio.toFixed(2)}×`,
      );
    const verdicts = [
      check(find('kioku --version').ratio <= 1.2, `kioku --version ${find('kioku --version').ratio.toFixed(2)}× node -e 0 (≤ 1.2×)`),
      recallVerdict('kioku memory recall, daemon up', FLOOR_SOCKET, 'daemon up'),
      recallVerdict('kioku memory recall, no daemon', FLOOR_OPEN_INDEX, 'no daemon'),
    ];
    const phases = { down: traceMedians(traces.down), up: traceMedians(traces.up) };
    const phaseLines = Object.entries(phases).flatMap(([phase, by]) =>
      Object.entries(by).map(
        ([what, marks]) =>
          `  ${what}, daemon ${phase}: ${Object.entries(marks)
            .filter(([mark]) => !mark.startsWith(SPAN_PREFIX))
            .sort(([, a], [, b]) => a - b)
            .map(([mark, ms]) => `${mark} ${ms}`)
            .join(' → ')} ms${Object.entries(marks)
            .filter(([mark]) => mark.startsWith(SPAN_PREFIX))
            .map(([mark, ms]) => `; of which ${mark.slice(SPAN_PREFIX.length)} ${ms} ms`)
            .join('')}`,
      ),
    );
    process.stdout.write(
      `\ncli bench: ${memoryCount} memories, ${runs} runs each, median wall time from spawn to exit (node ${process.version}, ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')})\n`,
    );
    process.stdout.write(
      `${table}\n\n${verdicts.join('\n')}\n\nwhere a recall's time goes (KIOKU_TRACE marks, ms since its process started, medians):\n${phaseLines.join('\n')}\n`,
    );
    const file = writeBenchResults('cli', { runs, memories: memoryCount, compare: other ?? null, baseline, results, phases, verdicts });
    process.stdout.write(`results: ${file}\n`);
    if (values.keep) process.stdout.write(`kept: ${homeDir}\n`);
  } finally {
    await floors?.close();
    for (const daemon of daemons) {
      if (daemon.exitCode !== null) continue;
      const exited = new Promise((resolve) => daemon.once('exit', resolve));
      daemon.kill('SIGTERM');
      const kill = setTimeout(() => daemon.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(kill);
    }
    if (!values.keep) for (const dir of [homeDir, otherHomeDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `items` in an order of their own for each round (the same on every run of the bench). */
function shuffled<T>(items: readonly T[], round: number): T[] {
  const random = seededRandom(1000 + round);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
