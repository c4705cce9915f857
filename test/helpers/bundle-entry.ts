import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Bundle a TypeScript entry into plain JavaScript that a real child process can run, without
 * touching dist/ (several test files, and builds, may run at the same time). Packages stay
 * external and the bundle lives under the repo, so Node finds them in node_modules. The output
 * is cached by the entry's path and the sources' mtimes for the life of the test run.
 */
export function bundleEntry(entry: string): string {
  const absolute = path.resolve(root, entry);
  const key = createHash('sha256').update(absolute).update(String(process.pid)).digest('hex').slice(0, 12);
  const outfile = path.join(root, '.tmp', 'bundles', key, `${path.basename(entry, path.extname(entry))}.mjs`);
  buildSync({
    entryPoints: [absolute],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  fs.chmodSync(outfile, 0o755);
  return outfile;
}
