#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/. Kept in plain JS so that `npx kioku` and the
// installed app can start it without TypeScript — and CommonJS (bin/package.json says so, keeping
// this path, which cron entries and role agents already name): an ES module entry costs Node 20
// its ESM loader on every start, and the hook client, `--version` and a recall the daemon
// answers never need it (X-PERF, issue 17).
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const root = path.dirname(__dirname);

async function launch() {
  const [command, subcommand] = process.argv.slice(2);
  // `kioku hook <event>` is the hot path (an assistant runs it for every event): go straight to
  // the bundled hook client, without the command parser. It always exits 0 (HOOK-2).
  if (command === 'hook') {
    const hookEntry = path.join(root, 'dist', 'hooks', 'kioku-hook.js');
    if (!existsSync(hookEntry)) {
      process.stderr.write(`kioku: ${hookEntry} is missing; run \`npm run build\` (the assistant was not blocked)\n`);
      process.exit(0);
    }
    process.exitCode = await require(hookEntry).runHook(process.argv.slice(3));
    return;
  }
  // What commander prints for --version (main/cli/cli-version.ts; test/cli/command-tree.test.ts
  // keeps the two equal), without loading it or any command.
  if (process.argv.length === 3 && (command === '--version' || command === '-V')) {
    process.stdout.write(`${require('../package.json').version}\n`);
    return;
  }
  // Answered by the daemon without the command parser (main/cli/recall-fast.ts, issue 17).
  if (command === 'memory' && subcommand === 'recall' && (await recallFast())) return;
  const entry = path.join(root, 'dist', 'main', 'cli', 'kioku.js');
  if (!existsSync(entry)) {
    process.stderr.write(`kioku: ${entry} is missing\n  → run \`npm run build\` in ${root} first\n`);
    process.exit(1);
  }
  // A daemon stays up and answers hooks: V8 makes baseline code for everything it compiles from
  // here on, before the CLI is loaded (main/core/hosts/daemon/baseline-code.ts says why).
  if (command === 'daemon') await preferBaselineCode();
  const { main } = await import(pathToFileURL(entry).href);
  process.exitCode = await main(process.argv);
}

async function preferBaselineCode() {
  const file = path.join(root, 'dist', 'main', 'core', 'hosts', 'daemon', 'baseline-code.js');
  (await import(pathToFileURL(file).href)).preferBaselineCode();
}

/**
 * `memory recall` through its fast path when it is built (loaded with its code cache by
 * main/cli/recall-launcher.ts): true when it answered (the exit code is set), false when the full
 * CLI must run the command.
 */
async function recallFast() {
  const launcher = path.join(root, 'dist', 'cli-fast', 'recall-launcher.js');
  if (!existsSync(launcher)) return false;
  const { launchRecall, recallSettled } = require(launcher);
  const code = await launchRecall(process.argv.slice(4));
  if (code === 'full') return false;
  // Answered, and nothing left running: end now rather than tear Node's environment down.
  if (typeof recallSettled === 'function' && recallSettled()) process.exit(code);
  process.exitCode = code;
  return true;
}

// A failure here is a broken install, not a command's error: Node reports it (exit 1), as before.
launch().catch((error) => {
  process.exitCode = 1;
  throw error;
});
