import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchRoot, writeBenchResults } from './bench-results.js';
import { percentile, round } from './bench-stats.js';
import { bundleHooksBench } from './hooks-bench-bundle.js';
import { prepareHooksBenchHome } from './hooks-bench-home.js';
import { waitIdle } from './hooks-bench-runs.js';

/**
 * X-PERF, issue 17's prepared load on disk: what the daemon does on its own after each turn of a
 * 10,000-memory role — the capture, the next load kept warm and written to disk for a hook that
 * later finds no daemon. A person does not wait for it, but pays for it after every turn: CPU on
 * a laptop's battery, megabytes on its disk. Each turn is a Stop through the shipped hook client,
 * after a turn appended to the session's transcript as Claude Code writes it; half of them ask to
 * be remembered (a memory in the inbox), half are small talk (no memory file changes). The
 * daemon's CPU (user + system) and the bytes it wrote (`wchar`: files and its socket replies) are
 * read from /proc, from before the Stop until it is idle again.
 * Design notes: docs/design-notes.md, "bench/daemon-turns-bench.ts".
 */

type TurnKind = 'a memory' | 'no memory';
const KINDS: readonly TurnKind[] = ['a memory', 'no memory'];

/** The daemon's prepared load is written 2.2 s after a change (load-warmer.ts), later while the new file is racy: wait it out before asking, so the bench's own status requests stay few. */
const SETTLE_MS = 5_000;
const SESSION = 'bench-turns';

interface TurnSample {
  cpuMs: number;
  writtenBytes: number;
}

/** The process's CPU time so far (user + system), in ms. */
function cpuMs(pid: number, tickMs: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime: the 14th and 15th fields, the 12th and 13th after the command's name.
  return (Number(fields[11]) + Number(fields[12])) * tickMs;
}

/** Bytes the process has passed to write calls so far. */
function writtenBytes(pid: number): number {
  return Number(/^wchar: (\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
}

function residentMb(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
}

function clockTickMs(): number {
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 10_000 }).stdout);
  return 1000 / (Number.isFinite(ticks) && ticks > 0 ? ticks : 100);
}

/** One user turn and the assistant's answer, appended as Claude Code appends them. */
function appendTurn(transcript: string, cwd: string, kind: TurnKind, index: number): void {
  const ask =
    kind === 'a memory'
      ? `記住：第 ${index} 個部署規則，藍綠部署切換流量前一定要先跑健康檢查，失敗就自動回滾到舊版本。`
      : `第 ${index} 次閒聊：午餐吃什麼？`;
  const answer = kind === 'a memory' ? `好的，第 ${index} 條規則記下了：切換前先做健康檢查，失敗就回滾。` : '都可以。';
  const line = (type: 'user' | 'assistant', content: unknown) =>
    JSON.stringify({
      type,
      sessionId: SESSION,
      cwd,
      message: { role: type, content, ...(type === 'assistant' ? { id: `t${index}` } : {}) },
    });
  fs.appendFileSync(transcript, `${line('user', ask)}\n${line('assistant', [{ type: 'text', text: answer }])}\n`);
}

async function measureBuild(
  label: string,
  buildRoot: string,
  buildDir: string,
  memoryCount: number,
  turns: number,
  tickMs: number,
  keep: boolean,
): Promise<{ samples: Record<TurnKind, TurnSample[]>; residentMb: number; homeDir: string }> {
  process.stderr.write(`daemon turns bench: bundling ${label}…\n`);
  const { hook, cli } = await bundleHooksBench(buildRoot, path.join(buildDir, label));
  const homeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-turns-bench-'));
  const home = prepareHooksBenchHome(homeDir, memoryCount);
  const { env, config } = home;
  const cwd = path.join(homeDir, 'project');
  const transcript = home.transcript(SESSION);
  const daemon = spawn(process.execPath, [cli, 'daemon'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let daemonErr = '';
  daemon.stderr!.on('data', (chunk: Buffer) => (daemonErr += chunk.toString()));
  const exited = new Promise<void>((resolve) => daemon.on('exit', () => resolve()));
  const samples: Record<TurnKind, TurnSample[]> = { 'a memory': [], 'no memory': [] };
  try {
    const pid = daemon.pid!;
    await waitIdle(config, pid, env).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}; daemon stderr: ${daemonErr.trim()}`);
    });
    // The first turn of each kind untimed: the daemon's code is compiled on its first capture and write.
    for (let round = -1; round < turns; round++) {
      for (const kind of KINDS) {
        const index = (round + 1) * KINDS.length + KINDS.indexOf(kind);
        appendTurn(transcript, cwd, kind, index);
        const cpuBefore = cpuMs(pid, tickMs);
        const writtenBefore = writtenBytes(pid);
        const input = JSON.stringify(home.payload('stop', SESSION, { stop_hook_active: false }));
        const stop = spawnSync(process.execPath, [hook, 'stop', '--assistant', 'claude'], { env, input, timeout: 30_000 });
        if (stop.status !== 0) throw new Error(`daemon turns bench: the Stop hook exited ${stop.status}: ${stop.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        await waitIdle(config, pid, env);
        if (round >= 0) samples[kind].push({ cpuMs: cpuMs(pid, tickMs) - cpuBefore, writtenBytes: writtenBytes(pid) - writtenBefore });
      }
      if (round >= 0) process.stderr.write(`daemon turns bench: ${label}, ${round + 1}/${turns} rounds\n`);
    }
    return { samples, residentMb: residentMb(pid), homeDir };
  } finally {
    if (daemon.exitCode === null) daemon.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (daemon.exitCode === null) daemon.kill('SIGKILL');
    if (!keep) fs.rmSync(homeDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => percentile(values, 50);

export async function runDaemonTurnsBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      memories: { type: 'string', default: '10000' },
      turns: { type: 'string', default: '10' },
      compare: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  const memoryCount = Number(values.memories);
  const turns = Number(values.turns);
  if (!Number.isInteger(turns) || turns < 1 || !Number.isInteger(memoryCount) || memoryCount < 0)
    throw new Error('--turns and --memories take whole numbers (e.g. --turns 10 --memories 10000)');
  if (process.platform !== 'linux') {
    process.stdout.write(
      `daemon turns bench: not run — it reads the daemon's CPU and writes from /proc, which ${process.platform} has not\n`,
    );
    return;
  }
  const root = benchRoot();
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const buildDir = fs.mkdtempSync(path.join(root, '.tmp', 'daemon-turns-'));
  const tickMs = clockTickMs();
  try {
    const builds: Array<[string, string]> = [
      ['this build', root],
      ...(values.compare ? [['compared', path.resolve(values.compare)] as [string, string]] : []),
    ];
    const results: Record<string, Awaited<ReturnType<typeof measureBuild>>> = {};
    for (const [label, buildRoot] of builds)
      results[label] = await measureBuild(label, buildRoot, buildDir, memoryCount, turns, tickMs, values.keep);
    const rows = builds.flatMap(([label]) =>
      KINDS.map((kind) => {
        const samples = results[label]!.samples[kind];
        return {
          build: label,
          turn: kind,
          cpuMs: round(median(samples.map((s) => s.cpuMs)), 0),
          cpuP90Ms: round(
            percentile(
              samples.map((s) => s.cpuMs),
              90,
            ),
            0,
          ),
          writtenMb: round(median(samples.map((s) => s.writtenBytes)) / 1e6),
        };
      }),
    );
    const lines = [
      `daemon turns bench: ${memoryCount} memories, ${turns} turns of each kind, medians per turn (node ${process.version}, ${os.cpus().length} CPUs; CPU in ${tickMs} ms ticks)`,
      `${'build'.padEnd(12)}${'turn'.padEnd(12)}${'CPU ms'.padStart(8)}${'CPU p90'.padStart(9)}${'written MB'.padStart(12)}`,
      ...rows.map(
        (row) =>
          `${row.build.padEnd(12)}${row.turn.padEnd(12)}${String(row.cpuMs).padStart(8)}${String(row.cpuP90Ms).padStart(9)}${String(row.writtenMb).padStart(12)}`,
      ),
      ...builds.map(([label]) => `${label}: the daemon's resident memory after the turns: ${round(results[label]!.residentMb, 0)} MB`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    const file = writeBenchResults(
      'daemon-turns',
      {
        memories: memoryCount,
        turns,
        rows,
        residentMb: Object.fromEntries(builds.map(([label]) => [label, round(results[label]!.residentMb, 0)])),
      },
      root,
    );
    process.stdout.write(`results: ${file}\n`);
  } finally {
    if (!values.keep) fs.rmSync(buildDir, { recursive: true, force: true });
  }
}
