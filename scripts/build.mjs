// Build everything `npm start`, `npm test` and packaging need: TypeScript for the processes
// (common, main, hooks, preload, bench) into dist/, then the renderer with Vite.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function run(label, command, args) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build: ${label} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`build: ${label} ok (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

rmSync(path.join(root, 'dist'), { recursive: true, force: true });
run('tsc', bin('tsc'), ['-p', 'tsconfig.build.json']);
if (existsSync(path.join(root, 'scripts', 'build-hooks.mjs'))) run('hook client bundle', process.execPath, ['scripts/build-hooks.mjs']);
if (existsSync(path.join(root, 'scripts', 'build-preload.mjs'))) run('preload bundle', process.execPath, ['scripts/build-preload.mjs']);
if (existsSync(path.join(root, 'renderer', 'index.html'))) run('renderer (vite)', bin('vite'), ['build', '--logLevel', 'warn']);
