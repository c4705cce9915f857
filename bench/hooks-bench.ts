import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { preparedLoadPath } from '../main/core/platform/config/prepared-paths.js';
import {
  baselineOf,
  summarize,
  table,
  traceMedians,
  PHASES,
  type HookResult,
  type Phase,
  type Sample,
  type Stats,
} from './hooks-bench-report.js';
import { writeBenchResults } from './bench-results.js';
import { spawnTimedWarm, waitIdle } from './hooks-bench-runs.js';
import { bundleHooksBench } from './hooks-bench-bundle.js';
import { prepareHooksBenchHome, ROLE } from './hooks-bench-home.js';
import { hooksBenchScenarios } from './hooks-bench-scenarios.js';
import { hooksBenchVerdicts } from './hooks-bench-verdicts.js';
import { floorRows, startHookFloors, type HookFloors } from './hook-floors.js';

/**
 * X-PERF: every hook started as an assistant starts it, on a 10,000-memory role, with the daemon
 * up, hung and down, timed against `node -e 0`; a hung daemon must make every hook fail open in time.
 * Design notes: docs/design-notes.md, "bench/hooks-bench.ts".
 */

function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'hooks', 'kioku-hook.ts'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('hooks bench: cannot find the Kioku source tree (hooks/kioku-hook.ts) above this file');
    dir = parent;
  }
}

export async function runHooksBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      runs: { type: 'string', default: '30' },
      memories: { type: 'string', default: '10000' },
      keep: { type: 'boolean', default: false },
      compare: { type: 'string' },
      'daemon-profile': { type: 'string' },
    },
  });
  const runs = Number(values.runs);
  const memoryCount = Number(values.memories);
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(memoryCount) || memoryCount < 0)
    throw new Error('--runs and --memories take whole numbers (e.g. --runs 30 --memories 10000)');

  const root = findRoot();
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  // Under the repo, like test/helpers/bundle-entry.ts: the bundles keep packages external and
  // Node finds them in node_modules from there.
  const buildDir = fs.mkdtempSync(path.join(root, '.tmp', 'hooks-bench-'));
  const homeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-hooks-bench-'));
  let daemon: ReturnType<typeof spawn> | undefined;
  // The floor programs' echo server (hook-floors.ts): up from the first phase to the last.
  let floors: HookFloors | undefined;
  try {
    process.stderr.write('hooks bench: bundling the hook client and the CLI…\n');
    const { hook, cli, budgets } = await bundleHooksBench(root, buildDir);
    // --compare <another checkout>: its hook client, built by its own build script, runs in the same rounds (rows "old …").
    const compareRoot = values.compare ? path.resolve(values.compare) : undefined;
    const oldHook = compareRoot ? (await bundleHooksBench(compareRoot, path.join(buildDir, 'compare'))).hook : undefined;
    const clients: Array<[string, string]> = [['', hook], ...(oldHook ? ([['old ', oldHook]] as Array<[string, string]>) : [])];
    const { DAEMON_WAIT_MS } = (await import(pathToFileURL(budgets).href)) as typeof import('../hooks/hook-budgets.js');

    const home = prepareHooksBenchHome(homeDir, memoryCount);
    const { env, config, payload } = home;
    const scenarios = hooksBenchScenarios(home);

    // `node -e 0` in every round of every phase: each phase's rows are divided by its own median,
    // so that the machine's speed drifting between phases (minutes apart) does not tilt them.
    const baselineSamples: Record<Phase, Sample[]> = { up: [], hung: [], down: [] };
    // The floors under the daemon-up targets (hook-floors.ts), in every round of every phase, with
    // a prompt's payload: they never talk to the daemon, so their rows also show what the daemon's
    // mere presence costs another process.
    const floorSamples = new Map<string, Record<Phase, Sample[]>>();
    const floorInput = JSON.stringify(payload('user-prompt-submit', 'bench-start', { prompt: '幫我把部署流程的測試補齊' }));
    const samples = new Map<string, Record<Phase, { samples: Sample[]; bad: number }>>(
      clients.flatMap(([label]) =>
        scenarios.map(
          (s) =>
            [`${label}${s.name}`, { up: { samples: [], bad: 0 }, hung: { samples: [], bad: 0 }, down: { samples: [], bad: 0 } }] as const,
        ),
      ),
    );
    const traceFile = (phase: Phase) => path.join(homeDir, `trace-${phase}.jsonl`);
    // Each run traces into a file of its own, kept under its scenario's name: the stale and the
    // valid runs of one hook are told apart in the table (the hook names only its event).
    const runTrace = path.join(homeDir, 'trace-run.jsonl');
    const keepTrace = (phase: Phase, scenario: string) => {
      if (!fs.existsSync(runTrace)) return;
      const lines = fs.readFileSync(runTrace, 'utf8').split('\n').filter(Boolean);
      fs.rmSync(runTrace);
      fs.appendFileSync(
        traceFile(phase),
        lines.map((text) => `${JSON.stringify({ ...JSON.parse(text), what: `hook ${scenario}` })}\n`).join(''),
      );
    };
    const problems: string[] = [];
    const hooksLog = path.join(config.paths.logsDir, 'hooks.log');
    const fallbacksSoFar = () => (fs.existsSync(hooksLog) ? (fs.readFileSync(hooksLog, 'utf8').match(/did not answer/g) ?? []).length : 0);
    const lastSource = () =>
      fs.existsSync(hooksLog)
        ? [...fs.readFileSync(hooksLog, 'utf8').matchAll(/long-term memory from (prepared|files)/g)].at(-1)?.[1]
        : undefined;

    // With --compare, each client keeps a prepared folder and a code cache of its own
    // (prepared-paths.ts, code-cached-require.ts) while the daemon is not answering: two clients
    // would otherwise each find the other's prepared load unusable (another format) and delete
    // the other's code cache (another bundle), so that every run of both were a stale, compiling one.
    // With the daemon up, the prepared folder is the daemon's (it writes it) and only the code
    // cache is each client's: one client's first run would otherwise delete the other's cache
    // (another bundle), and every run of both would compile.
    const cacheFolder = path.join(config.paths.stateDir, 'cache');
    const ownFolders = [path.dirname(preparedLoadPath(config.paths, ROLE)), cacheFolder];
    const folderOwners = new Map<string, string>();
    const useFoldersOf = (label: string, folders: readonly string[] = ownFolders) => {
      for (const folder of folders) {
        const owner = folderOwners.get(folder) ?? '';
        if (owner === label) continue;
        const stash = (who: string) => `${folder}.bench-${who || 'new'}`;
        if (fs.existsSync(folder)) fs.renameSync(folder, stash(owner));
        if (fs.existsSync(stash(label))) fs.renameSync(stash(label), folder);
        folderOwners.set(folder, label);
      }
    };

    const runPhase = async (phase: Phase, daemonPid: number | undefined) => {
      // One untimed round first (page cache, snapshots, the name cache), then N rounds, each
      // hook once per round with `node -e 0` among them, so that a change in the machine's load
      // touches every row alike.
      // Then a few rounds of this build's client alone with KIOKU_TRACE, untimed: a traced run
      // pays for its marks (performance.now() loads perf_hooks, about a millisecond), which only
      // one side of a --compare would pay if the timed runs were traced.
      const traceRounds = Math.min(runs, 5);
      for (let round = -1; round < runs + traceRounds; round++) {
        const traced = round >= runs;
        baselineSamples[phase].push(...(round >= 0 && !traced ? [await spawnTimedWarm(['-e', '0'], '', env)] : []));
        if (floors && round >= 0 && !traced)
          for (const [name, args] of floors.programs) {
            const runs = floorSamples.get(name) ?? { up: [], hung: [], down: [] };
            runs[phase].push(await spawnTimedWarm(args, floorInput, env));
            floorSamples.set(name, runs);
          }
        for (const scenario of scenarios) {
          await scenario.edit?.();
          for (const [label, client] of clients) {
            if (traced && label !== '') continue;
            useFoldersOf(label, phase === 'up' ? [cacheFolder] : ownFolders);
            await scenario.setup?.();
            const before = phase === 'up' ? fallbacksSoFar() : 0;
            // Phase marks of this build's client (hooks/kioku-hook.ts), for the table of where the time goes.
            const sample = await spawnTimedWarm(
              [client, scenario.event!, '--assistant', 'claude'],
              JSON.stringify(scenario.payload!()),
              traced ? { ...env, KIOKU_TRACE: runTrace } : env,
            );
            if (traced) keepTrace(phase, scenario.name);
            if (daemonPid !== undefined) await waitIdle(config, daemonPid, env); // its background work stays out of the next run
            if (round < 0 || traced) continue;
            const name = `${label}${scenario.name}`;
            const entry = samples.get(name)![phase];
            entry.samples.push(sample);
            const fellBack = phase === 'up' && fallbacksSoFar() > before;
            const source = phase !== 'up' && scenario.expectSource ? lastSource() : undefined;
            const wrongSource = source !== undefined && source !== scenario.expectSource;
            const ok =
              sample.code === 0 && sample.stderr === '' && !fellBack && !wrongSource && (scenario.expectOutput?.(sample.stdout) ?? true);
            if (!ok) {
              entry.bad++;
              // A few per hook and phase, so one hook's repeated failure cannot hide another's.
              if (entry.bad <= 3)
                problems.push(
                  `${phase} ${name}: exit ${sample.code}${fellBack ? ', fell back to the files' : ''}${wrongSource ? `, long-term memory from ${source}` : ''}, stdout ${JSON.stringify(sample.stdout.slice(0, 120))}, stderr ${JSON.stringify(sample.stderr.slice(0, 200))}`,
                );
            }
          }
        }
        if (round >= 0 && !traced && (round + 1) % 10 === 0)
          process.stderr.write(`hooks bench: daemon ${phase}, ${round + 1}/${runs} rounds\n`);
      }
    };

    process.stderr.write('hooks bench: starting the daemon…\n');
    // --daemon-profile <dir>: the daemon's CPU profile (written when it exits), for finding where its answers go.
    const profile = values['daemon-profile'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['daemon-profile'])}`] : [];
    const child = spawn(process.execPath, [...profile, cli, 'daemon'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    daemon = child;
    let daemonErr = '';
    child.stderr!.on('data', (chunk: Buffer) => (daemonErr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    await waitIdle(config, child.pid!, env).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}; daemon stderr: ${daemonErr.trim()}`);
    });
    floors = await startHookFloors(buildDir);
    await runPhase('up', child.pid!);
    child.kill('SIGTERM');
    await exited;
    daemon = undefined;
    if (fs.existsSync(config.paths.socketPath)) throw new Error(`the daemon left its socket ${config.paths.socketPath} behind`);
    // Hung: the token is still there and the socket accepts every connection, but nothing is
    // ever answered — what a hook meets when the daemon is stopped (SIGSTOP) or stuck.
    const held = new Set<net.Socket>();
    const hung = net.createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => held.delete(socket));
      socket.resume();
    });
    await new Promise<void>((resolve, reject) => hung.once('error', reject).listen(config.paths.socketPath, () => resolve()));
    try {
      await runPhase('hung', undefined);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => hung.close(() => resolve()));
      fs.rmSync(config.paths.socketPath, { force: true });
    }
    await runPhase('down', undefined);
    useFoldersOf('');
    await floors.close();
    floors = undefined;

    const baseline = baselineOf(PHASES.flatMap((phase) => baselineSamples[phase]));
    const baselines = Object.fromEntries(PHASES.map((phase) => [phase, baselineOf(baselineSamples[phase])])) as Record<Phase, Stats>;
    const floorStats = floorRows(floorSamples, baselines, baselineSamples);
    const results: HookResult[] = [...samples.keys()].map((name) => {
      const entry = samples.get(name)!;
      return {
        name,
        up: summarize(entry.up.samples, baselines.up.medianMs, entry.up.bad, baselineSamples.up),
        hung: summarize(entry.hung.samples, baselines.hung.medianMs, entry.hung.bad, baselineSamples.hung),
        down: summarize(entry.down.samples, baselines.down.medianMs, entry.down.bad, baselineSamples.down),
      };
    });
    const verdicts = hooksBenchVerdicts(results, floorStats, scenarios, DAEMON_WAIT_MS);

    process.stdout.write(
      `\nhooks bench: ${memoryCount} memories, ${runs} runs each, median of wall time from spawn to exit (node ${process.version}, ${os.cpus().length} CPUs)\n`,
    );
    process.stdout.write(
      '(daemon hung or down, the load comes from the prepared load on disk; the "prepared load stale" rows edit a memory by hand before each run, so every file is read again)\n',
    );
    process.stdout.write(`${table(baselines, results, floorStats)}\n\n${verdicts.map((v) => v.line).join('\n')}\n`);
    const phases = Object.fromEntries(PHASES.map((phase) => [phase, traceMedians(traceFile(phase))]));
    const phaseLines = PHASES.flatMap((phase) =>
      phases[phase]!.map(
        ([what, { marks, spans }]) =>
          `  ${what}, daemon ${phase}: ${Object.entries(marks)
            .map(([mark, ms]) => `${mark} ${ms}`)
            .join(' → ')} ms${spans.daemon !== undefined ? ` (the daemon's own work: ${spans.daemon} ms)` : ''}`,
      ),
    );
    process.stdout.write(
      `\nwhere a hook's time goes (KIOKU_TRACE marks, ms since its process started, medians; node -e 0 takes ${PHASES.map((phase) => `${baselines[phase].medianMs} ms ${phase}`).join(', ')}):\n${phaseLines.join('\n')}\n`,
    );
    if (problems.length)
      process.stdout.write(
        `\nruns that did not behave (the first 3 of each hook and phase; counts in the "bad" columns):\n${problems.map((p) => `  ${p}`).join('\n')}\n`,
      );

    const file = writeBenchResults(
      'hooks',
      {
        runs,
        memories: memoryCount,
        compare: compareRoot ?? null,
        baseline,
        baselines,
        floors: floorStats,
        results,
        phases,
        targets: verdicts.map(({ line: _line, ...v }) => v),
        problems,
      },
      root,
    );
    process.stdout.write(`results: ${file}\n`);
    if (values.keep) process.stdout.write(`kept: ${buildDir} ${homeDir}\n`);
  } finally {
    if (daemon && daemon.exitCode === null) daemon.kill('SIGKILL');
    await floors?.close();
    if (!values.keep) {
      fs.rmSync(buildDir, { recursive: true, force: true });
      fs.rmSync(homeDir, { recursive: true, force: true });
    }
  }
}
