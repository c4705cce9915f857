#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/. Kept in plain JS so that `npx kioku` and the
// installed app can start it without TypeScript.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

// `kioku hook <event>` is the hot path (an assistant runs it for every event): go straight to
// the bundled hook client, without the command parser. It always exits 0 (HOOK-2).
if (process.argv[2] === 'hook') {
  const hookEntry = path.join(root, 'dist', 'hooks', 'kioku-hook.js');
  if (!existsSync(hookEntry)) {
    process.stderr.write(`kioku: ${hookEntry} is missing; run \`npm run build\` (the assistant was not blocked)\n`);
    process.exit(0);
  }
  const { runHook } = await import(pathToFileURL(hookEntry).href);
  process.exitCode = await runHook(process.argv.slice(3));
} else if (process.argv[2] === 'memory' && process.argv[3] === 'recall' && (await recallFast())) {
  // Answered by the daemon without the command parser (main/cli/recall-fast.ts, issue 17).
} else if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  // What commander prints for --version, without loading it or any command (X-PERF).
  const versionEntry = path.join(root, 'dist', 'main', 'cli', 'cli-version.js');
  if (!existsSync(versionEntry)) {
    process.stderr.write(`kioku: ${versionEntry} is missing\n  → run \`npm run build\` in ${root} first\n`);
    process.exit(1);
  }
  const { KIOKU_VERSION } = await import(pathToFileURL(versionEntry).href);
  process.stdout.write(`${KIOKU_VERSION}\n`);
} else {
  const entry = path.join(root, 'dist', 'main', 'cli', 'kioku.js');
  if (!existsSync(entry)) {
    process.stderr.write(`kioku: ${entry} is missing\n  → run \`npm run build\` in ${root} first\n`);
    process.exit(1);
  }
  const { main } = await import(pathToFileURL(entry).href);
  process.exitCode = await main(process.argv);
}

/**
 * `memory recall` through its fast path when it is built: true when the daemon answered (the exit
 * code is set), false when the full CLI must run the command.
 */
async function recallFast() {
  const fastEntry = path.join(root, 'dist', 'cli-fast', 'recall-fast.js');
  if (!existsSync(fastEntry)) return false;
  // require, not import(): import() of a CommonJS file first lexes all of it for its exports.
  const { recallFast: run } = createRequire(import.meta.url)(fastEntry);
  const code = await run(process.argv.slice(4));
  if (code === 'full') return false;
  process.exitCode = code;
  return true;
}
