/**
 * `npm run bench -- <name> [options]`: one entry point for every bench, so package.json keeps a
 * single script. Each bench lives in its own module and is loaded only when asked for.
 */
const BENCHES: Record<string, { description: string; run: (args: string[]) => Promise<void> }> = {
  recall: {
    description:
      'recall from the index vs. a scan of the files; full reindex time (--sizes 10000,100000 --queries 200; --compare <checkout>: its recall side by side)',
    run: async (args) => (await import('./recall-bench.js')).runRecallBench(args),
  },
  hooks: {
    description:
      'wall time of every hook, started as an assistant starts it, vs. `node -e 0`, daemon up, hung and down; fail-open and SessionEnd budgets (--runs 30 --memories 10000)',
    run: async (args) => (await import('./hooks-bench.js')).runHooksBench(args),
  },
  cli: {
    description:
      'wall time of `kioku --version`, `--help` and `memory recall` (daemon down and up) vs. `node -e 0` and the least a Node recall costs, with phase traces (--memories 100000 --runs 15 --compare <other bin/kioku.js>)',
    run: async (args) => (await import('./cli-bench.js')).runCliBench(args),
  },
  'daemon-turns': {
    description:
      "the daemon's own work after each turn (capture, the next load kept warm and written to disk): CPU and bytes written per Stop, for a turn that becomes a memory and one that does not (--memories 10000 --turns 10 --compare <checkout>)",
    run: async (args) => (await import('./daemon-turns-bench.js')).runDaemonTurnsBench(args),
  },
  'daemon-start': {
    description:
      'the hook that comes before the daemon has read a role: the first SessionStart after it starts, the first call by name of another role, against the same hook once it is idle (--memories 10000 --starts 8 --compare <checkout>)',
    run: async (args) => (await import('./daemon-start-bench.js')).runDaemonStartBench(args),
  },
  redact: {
    description: 'redactSync on 50 KB of prose and on 200 KB of each input that would make a careless pattern backtrack (--runs 20)',
    run: async (args) => (await import('./redact-bench.js')).runRedactBench(args),
  },
  transcripts: {
    description: 'the recent dialog from the end of a 50 MB transcript, and giving up after the scan budget (--runs 10)',
    run: async (args) => (await import('./transcripts-bench.js')).runTranscriptsBench(args),
  },
  sleep: {
    description:
      '1,000 inbox items through the local planner on a worker thread: total time and the longest main-loop stall (--items 1000 --existing 300)',
    run: async (args) => (await import('./sleep-bench.js')).runSleepBench(args),
  },
  sync: {
    description:
      '`kioku sync now` between two machine homes over a bare repository: 10,000 memories, 100 new on each side (--memories 10000 --new 100 --keep)',
    run: async (args) => (await import('./sync-bench.js')).runSyncBench(args),
  },
  ui: {
    description:
      'the memory timeline at 10,000 memories in Chromium against `kioku daemon --web`: frame times while scrolling, median/p95/max and frames over 16.7/33 ms (--memories 10000 --frames 600 --keep)',
    run: async (args) => (await import('./ui-bench.js')).runUiBench(args),
  },
  quality: {
    description:
      'scripted weeks of use through the shipped hooks, nightly `kioku sleep`: checks on the last contexts and recall, with the daemon and in file mode (--mode daemon,file --scenario datong-week,two-roles,calendar --keep --verbose)',
    run: async (args) => (await import('./quality-bench.js')).runQualityBench(args),
  },
};

const [name, ...args] = process.argv.slice(2);
const bench = name === undefined ? undefined : BENCHES[name];
if (!bench) {
  process.stderr.write(
    `usage: npm run bench -- <name> [options]\n${Object.entries(BENCHES)
      .map(([key, b]) => `  ${key}: ${b.description}`)
      .join('\n')}\n`,
  );
  process.exitCode = 2;
} else {
  try {
    await bench.run(args);
  } catch (error) {
    // A mistyped option is the user's to fix: say which, and the bench's options, not a stack.
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!code.startsWith('ERR_PARSE_ARGS_')) throw error;
    process.stderr.write(`npm run bench -- ${name}: ${(error as Error).message}\n  ${name}: ${bench.description}\n`);
    process.exitCode = 2;
  }
}
