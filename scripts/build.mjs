// Build everything `npm start`, `npm test` and packaging need: one TypeScript pass over the
// Node-side code and its tests into dist/ (tests are type-checked here, never twice), the hook and
// preload bundles, then the renderer with Vite. `--if-stale` skips it all when nothing changed.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent, writeBuildStamp } from './build-stamp.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

if (process.argv.includes('--if-stale') && buildIsCurrent(root)) {
  process.stdout.write('build: dist/ is newer than every source file; not rebuilt (npm run build forces it)\n');
  process.exit(0);
}

function run(label, command, args) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build: ${label} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`build: ${label} ok (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

const startedAt = Date.now();
rmSync(path.join(root, 'dist'), { recursive: true, force: true });
run('tsc', bin('tsc'), ['-b', 'tsconfig.json']);
run('hook client bundle', process.execPath, ['scripts/build-hooks.mjs']);
run('preload bundle', process.execPath, ['scripts/build-preload.mjs']);
run('renderer (vite)', bin('vite'), ['build', '--logLevel', 'warn']);
writeBuildStamp(root, startedAt);
