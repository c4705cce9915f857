// Bundle the window's preload (preload/preload.ts) into dist/preload/preload.cjs. A sandboxed
// preload cannot load files from disk: besides `electron` it may require only a few built-ins,
// so common/ (the UI contract, zod/mini) is bundled in. CommonJS, for the sandbox's loader.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const entry = path.join(root, 'preload', 'preload.ts');
if (!existsSync(entry)) {
  process.stdout.write('build-preload: no preload/preload.ts; skipped\n');
  process.exit(0);
}
const outfile = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, 'dist', 'preload', 'preload.cjs');
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'browser',
  target: 'chrome130',
  external: ['electron'],
  minify: true,
  sourcemap: false,
  logLevel: 'warning',
});
