import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { requestStatus } from '../main/core/platform/ipc/ipc-client.js';
import { benchRoot, writeBenchResults } from './bench-results.js';
import { percentile, round } from './bench-stats.js';
import { bundleHooksBench } from './hooks-bench-bundle.js';
import { OTHER, ROLE_NAME, prepareHooksBenchHome, type HooksBenchHome } from './hooks-bench-home.js';
import { waitIdle } from './hooks-bench-runs.js';
import { runNodeChild } from './node-child.js';

/**
 * X-PERF, issue 17: the hook that comes while the daemon has not read a role's memory files yet —
 * the first SessionStart after the app started (at login, after an update), the first call by
 * name of another role. Each start runs a daemon on the 10,000-memory home, sends the hook the
 * moment the daemon says it is ready, then the same hook once it is idle, and stops it: both
 * answers must be the same bytes. "a call" starts the daemon with the other role current, so the
 * role called is one it has not read. No ratio to `node -e 0` here: any process started while the
 * daemon starts up shares the two cores with it; the hook once idle is the reference.
 * Design notes: docs/design-notes.md, "bench/daemon-start-bench.ts".
 */

interface Scenario {
  name: string;
  hook: 'session-start' | 'a call';
  /**
   * The prepared load's last full check long past, as after a night with the app closed: the
   * load from it stats every file first (full-check-policy.ts).
   */
  fullCheckDue: boolean;
}
const SCENARIOS: readonly Scenario[] = [
  { name: 'session-start', hook: 'session-start', fullCheckDue: false },
  { name: 'session-start (full check due)', hook: 'session-start', fullCheckDue: true },
  { name: 'a call', hook: 'a call', fullCheckDue: false },
  { name: 'a call (full check due)', hook: 'a call', fullCheckDue: true },
];

interface StartSample {
  /** From the daemon's spawn to its status saying ready. */
  readyMs: number;
  /** The hook sent the moment the daemon was ready. */
  atOnceMs: number;
  /** Where that hook's load came from, as the logs tell it. */
  atOnceFrom: string;
  /** The same hook once the daemon was idle. */
  idleMs: number;
}

interface Build {
  label: string;
  hook: string;
  cli: string;
}

/** The daemon's status says ready (its socket answers), polled every 5 ms. */
async function untilReady(home: HooksBenchHome, pid: number, deadlineMs = 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const result = await requestStatus(home.config.paths, 2_000);
    if (result.ok && result.reply.status.pid === pid && result.reply.status.ready) return;
    if (Date.now() > deadline) throw new Error(`daemon start bench: daemon ${pid} was not ready within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function hookCall(home: HooksBenchHome, scenario: Scenario): { args: string[]; input: string } {
  if (scenario.hook === 'session-start') {
    home.forgetSessions();
    return { args: ['session-start'], input: JSON.stringify(home.payload('session-start', 'bench-start', { source: 'startup' })) };
  }
  home.callSetup();
  const input = JSON.stringify(home.payload('user-prompt-submit', 'bench-call', { prompt: `${ROLE_NAME}，幫我看一下這段` }));
  return { args: ['user-prompt-submit'], input };
}

/** What was appended to a log file since it was `from` bytes long. */
function appended(file: string, from: number): string {
  try {
    const bytes = fs.readFileSync(file);
    return bytes.subarray(Math.min(from, bytes.length)).toString('utf8');
  } catch {
    return '';
  }
}

const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/**
 * Where a hook's load came from: the hook's log says when it stopped waiting for the daemon (a
 * prompt waits 600 ms, hooks/hook-budgets.ts) and answered from the files itself; the daemon's
 * log says when it loaded from the prepared load or the files rather than its cache.
 */
function loadSource(hookLog: string, daemonLog: string): string {
  if (/daemon did not answer/.test(hookLog)) return 'the hook itself';
  const source = /long-term memory from ([a-z, ]+)/.exec(daemonLog)?.[1];
  return source ? `daemon: ${source.trim()}` : 'daemon: cache';
}

async function timedHook(build: Build, home: HooksBenchHome, scenario: Scenario): Promise<{ ms: number; stdout: string; from: string }> {
  const { args, input } = hookCall(home, scenario);
  const hookLog = path.join(home.config.paths.logsDir, 'hooks.log');
  const daemonLog = path.join(home.config.paths.logsDir, 'kioku.log');
  const [hookFrom, daemonFrom] = [sizeOf(hookLog), sizeOf(daemonLog)];
  const run = await runNodeChild([build.hook, ...args, '--assistant', 'claude'], input, home.env);
  if (run.code !== 0) throw new Error(`daemon start bench: ${build.label} ${scenario.name} exited ${run.code}: ${run.stderr}`);
  return { ms: run.ms, stdout: run.stdout, from: loadSource(appended(hookLog, hookFrom), appended(daemonLog, daemonFrom)) };
}

/** One start of a build's daemon: the hook at once, the hook once idle, the daemon stopped. */
async function oneStart(build: Build, home: HooksBenchHome, scenario: Scenario): Promise<StartSample> {
  // "a call": another role current, so the daemon reads that one at start and not the one called.
  const env = scenario.hook === 'a call' ? { ...home.env, ROLE_NAME: OTHER } : home.env;
  if (scenario.fullCheckDue) home.fullCheckDue();
  const spawned = performance.now();
  const daemon = spawn(process.execPath, [build.cli, 'daemon'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  daemon.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  daemon.on('error', (error) => (stderr += `\n${error.message}`));
  const exited = new Promise<void>((resolve) => daemon.on('exit', () => resolve()));
  try {
    await untilReady(home, daemon.pid!).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}; daemon stderr: ${stderr.trim()}`);
    });
    const readyMs = performance.now() - spawned;
    const atOnce = await timedHook(build, home, scenario);
    await waitIdle(home.config, daemon.pid!, home.env);
    const idle = await timedHook(build, home, scenario);
    if (atOnce.stdout !== idle.stdout)
      throw new Error(`daemon start bench: ${build.label} ${scenario.name} answered differently at once and once idle`);
    if (!atOnce.stdout) throw new Error(`daemon start bench: ${build.label} ${scenario.name} answered nothing`);
    if (idle.from !== 'daemon: cache')
      throw new Error(`daemon start bench: ${build.label} ${scenario.name} once idle came from ${idle.from}`);
    return { readyMs, atOnceMs: atOnce.ms, atOnceFrom: atOnce.from, idleMs: idle.ms };
  } finally {
    if (daemon.exitCode === null) daemon.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
    clearTimeout(timer);
    if (daemon.exitCode === null) {
      daemon.kill('SIGKILL');
      await exited;
    }
  }
}

const median = (values: number[]) => percentile(values, 50);

/** "daemon: prepared ×7, the hook itself ×1": how often each source answered. */
function tally(sources: string[]): string {
  const counts = new Map<string, number>();
  for (const source of sources) counts.set(source, (counts.get(source) ?? 0) + 1);
  return [...counts].map(([source, count]) => `${source} ×${count}`).join(', ');
}

export async function runDaemonStartBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      memories: { type: 'string', default: '10000' },
      starts: { type: 'string', default: '8' },
      compare: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  const memoryCount = Number(values.memories);
  const starts = Number(values.starts);
  if (!Number.isInteger(starts) || starts < 1 || !Number.isInteger(memoryCount) || memoryCount < 0)
    throw new Error('--starts and --memories take whole numbers (e.g. --starts 8 --memories 10000)');
  const root = benchRoot();
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const buildDir = fs.mkdtempSync(path.join(root, '.tmp', 'daemon-start-'));
  const homeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-start-bench-'));
  try {
    const sources: Array<[string, string]> = [
      ['this build', root],
      ...(values.compare ? [['compared', path.resolve(values.compare)] as [string, string]] : []),
    ];
    const builds: Build[] = [];
    for (const [label, buildRoot] of sources) {
      process.stderr.write(`daemon start bench: bundling ${label}…\n`);
      builds.push({ label, ...(await bundleHooksBench(buildRoot, path.join(buildDir, label.replace(/ /g, '-')))) });
    }
    const home = prepareHooksBenchHome(homeDir, memoryCount);
    // Untimed: each build's daemon once until idle, so that the prepared load on disk is there (and
    // each build's code is compiled once), as after any earlier run of the app.
    for (const build of builds) for (const scenario of SCENARIOS) await oneStart(build, home, scenario);
    const samples = new Map<string, StartSample[]>();
    for (let start = 0; start < starts; start++) {
      // Builds alternate which goes first, so neither always follows the other.
      for (const build of start % 2 ? [...builds].reverse() : builds)
        for (const scenario of SCENARIOS) {
          const key = `${build.label}\n${scenario.name}`;
          samples.set(key, [...(samples.get(key) ?? []), await oneStart(build, home, scenario)]);
        }
      process.stderr.write(`daemon start bench: ${start + 1}/${starts} starts\n`);
    }
    const rows = builds.flatMap((build) =>
      SCENARIOS.map((scenario) => {
        const runs = samples.get(`${build.label}\n${scenario.name}`)!;
        const atOnce = median(runs.map((run) => run.atOnceMs));
        const idle = median(runs.map((run) => run.idleMs));
        return {
          build: build.label,
          hook: scenario.name,
          readyMs: round(median(runs.map((run) => run.readyMs)), 0),
          atOnceMs: round(atOnce, 1),
          atOnceMaxMs: round(Math.max(...runs.map((run) => run.atOnceMs)), 1),
          atOnceFrom: tally(runs.map((run) => run.atOnceFrom)),
          idleMs: round(idle, 1),
          atOnceOverIdle: round(atOnce / idle, 1),
        };
      }),
    );
    const lines = [
      `daemon start bench: ${memoryCount} memories, ${starts} daemon starts per build and hook, medians (node ${process.version}, ${os.cpus().length} CPUs)`,
      `${'build'.padEnd(12)}${'hook'.padEnd(32)}${'ready ms'.padStart(9)}${'at once ms'.padStart(12)}${'max'.padStart(8)}${'idle ms'.padStart(9)}${'at once ÷ idle'.padStart(16)}  at once, the load from`,
      ...rows.map(
        (row) =>
          `${row.build.padEnd(12)}${row.hook.padEnd(32)}${String(row.readyMs).padStart(9)}${String(row.atOnceMs).padStart(12)}${String(row.atOnceMaxMs).padStart(8)}${String(row.idleMs).padStart(9)}${`${row.atOnceOverIdle}×`.padStart(16)}  ${row.atOnceFrom}`,
      ),
      '(at once: the hook sent the moment the daemon said it was ready; idle: the same hook once it had nothing left to do; both answers the same bytes)',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    process.stdout.write(`results: ${writeBenchResults('daemon-start', { memories: memoryCount, starts, rows }, root)}\n`);
  } finally {
    if (!values.keep) {
      fs.rmSync(buildDir, { recursive: true, force: true });
      fs.rmSync(homeDir, { recursive: true, force: true });
    }
  }
}
