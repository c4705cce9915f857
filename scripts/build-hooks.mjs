// Bundle the hook client (hooks/kioku-hook.ts) into dist/hooks/. The assistant starts it for
// every event, so start-up is the budget (X-PERF): one small file for the fast path (ask the
// daemon), and the fallback (answer from the files) in a second bundle loaded only when the
// daemon does not answer. Both are CommonJS: in Node 20 an ES module entry pays for the ESM loader
// on every start (about a tenth of `node -e 0`, measured side by side), a CommonJS one does not;
// dist/hooks/package.json says so, so the file names stay `.js`. Packages are bundled too (the
// closure is checked by check-imports.mjs to contain nothing native or heavy): left external,
// `zod/mini` alone loads zod's whole module graph from node_modules.
import { build } from 'esbuild';
import { builtinImports } from './builtin-imports-plugin.mjs';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
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
const shared = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  // The code finds its resources and tells "run as a program" from "imported" by its own URL.
  banner: { js: "const __kiokuSelfUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__kiokuSelfUrl' },
  logLevel: 'warning',
  plugins: [builtinImports],
};
mkdirSync(outdir, { recursive: true });
writeFileSync(path.join(outdir, 'package.json'), `${JSON.stringify({ type: 'commonjs', private: true }, null, 2)}\n`);
await build({ ...shared, entryPoints: [path.join(root, 'hooks', 'hook-fallback.ts')], outfile: path.join(outdir, 'hook-fallback.js') });
// The fast path loads the fallback bundle at run time, only when it needs it.
await build({ ...shared, entryPoints: [entry], outfile: path.join(outdir, 'kioku-hook.js'), external: ['./hook-fallback.js'] });
