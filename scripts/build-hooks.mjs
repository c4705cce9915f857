// Bundle the hook client (hooks/kioku-hook.ts) into dist/hooks/. The assistant starts it for
// every event, so start-up is the budget (X-PERF): one small ESM file for the fast path (ask the
// daemon), with the fallback (answer from the files) split into a chunk that loads only when the
// daemon does not answer. Packages are bundled too (the closure is checked by check-imports.mjs to
// contain nothing native or heavy): left external, `zod/mini` alone loads zod's whole module graph
// from node_modules, where bundled it tree-shakes to a few KB.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const entry = path.join(root, 'hooks', 'kioku-hook.ts');
if (!existsSync(entry)) {
  process.stdout.write('build-hooks: no hooks/kioku-hook.ts yet; skipped\n');
  process.exit(0);
}
// An output folder may be given (the hooks bench builds its own copy, so that it measures
// exactly what ships).
const outdir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, 'dist', 'hooks');
await build({
  entryPoints: [entry],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  // Bundled CommonJS packages (gray-matter) call require('fs'); an ESM bundle has no require.
  banner: { js: "import { createRequire as __kiokuCreateRequire } from 'node:module'; const require = __kiokuCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
