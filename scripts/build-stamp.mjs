// Whether dist/ is current: a stamp written after a full build, compared with the newest file the
// build reads. Lets `npm test` (pretest) reuse the build CI just made instead of building twice.
import fs from 'node:fs';
import path from 'node:path';

const STAMP = path.join('dist', '.build-stamp');
const INPUT_DIRS = ['common', 'main', 'hooks', 'preload', 'bench', 'test', 'renderer', 'scripts', 'resources'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'vite.config.ts'];
const SKIPPED = new Set(['node_modules', 'dist', 'results', 'screenshots']);

function newestMtime(dir, newest = 0) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return newest;
  }
  for (const entry of entries) {
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = newestMtime(full, newest);
    else if (entry.isFile()) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** The newest modification time among the build's inputs, in ms. */
export function newestInput(root) {
  let newest = 0;
  for (const dir of INPUT_DIRS) newest = newestMtime(path.join(root, dir), newest);
  for (const file of INPUT_FILES) {
    try {
      newest = Math.max(newest, fs.statSync(path.join(root, file)).mtimeMs);
    } catch {
      // an optional input that is not there cannot make the build stale
    }
  }
  return newest;
}

/** True when a full build finished after the newest input was last changed. */
export function buildIsCurrent(root) {
  let stamp;
  try {
    stamp = Number(fs.readFileSync(path.join(root, STAMP), 'utf8'));
  } catch {
    return false;
  }
  return Number.isFinite(stamp) && newestInput(root) < stamp;
}

/** Records that a build which started at `startedAt` (ms) finished: inputs older than that are in dist/. */
export function writeBuildStamp(root, startedAt) {
  fs.writeFileSync(path.join(root, STAMP), String(startedAt));
}
