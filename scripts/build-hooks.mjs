// Bundle the hook client (hooks/kioku-hook.ts) into dist/hooks/, and `kioku memory recall`'s fast
// path (main/cli/recall-fast.ts) into dist/cli-fast/.
// Design notes: docs/design-notes.md, "scripts/build-hooks.mjs".
import { build } from 'esbuild';
import { asciiRegexLiterals } from './ascii-regex-plugin.mjs';
import { builtinImports } from './builtin-imports-plugin.mjs';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  // The code finds its resources by its own URL: made when first read, not at every start (the
  // first pathToFileURL of a process is about half a millisecond, and most hooks never ask).
  banner: {
    js: "const __kiokuSelf = { get url() { return (this.href ??= require('node:url').pathToFileURL(__filename).href); } };",
  },
  define: { 'import.meta.url': '__kiokuSelf.url' },
  logLevel: 'warning',
  plugins: [builtinImports, asciiRegexLiterals],
};
mkdirSync(outdir, { recursive: true });
writeFileSync(path.join(outdir, 'package.json'), `${JSON.stringify({ type: 'commonjs', private: true }, null, 2)}\n`);
await build({ ...shared, entryPoints: [path.join(root, 'hooks', 'hook-fallback.ts')], outfile: path.join(outdir, 'hook-fallback.js') });
// The fast path loads the fallback bundle at run time, only when it needs it, with V8's code
// cache named by the bundle's hash: baked in here, so that no hook loads node:crypto to hash it.
const sha256Of = (file) => createHash('sha256').update(readFileSync(file, 'utf8')).digest('hex');
/**
 * A bundle that loads its already built sibling with the code cache (code-cached-require.ts): the
 * sibling stays outside it, and its hash is baked in as `hashName`, the cache's name (`also`: more
 * siblings it may load, by the name of their hash).
 */
const buildLoaderOf = (sibling, hashName, entryPoint, outfile, also = {}) =>
  build({
    ...shared,
    entryPoints: [entryPoint],
    outfile,
    external: [`./${path.basename(sibling)}`, ...Object.keys(also).map((name) => `./${path.basename(also[name])}`)],
    define: {
      ...shared.define,
      [hashName]: JSON.stringify(sha256Of(sibling)),
      ...Object.fromEntries(Object.entries(also).map(([name, file]) => [name, JSON.stringify(sha256Of(file))])),
    },
  });
await buildLoaderOf(path.join(outdir, 'hook-fallback.js'), '__KIOKU_FALLBACK_SHA256__', entry, path.join(outdir, 'hook-client.js'));
// What the assistants run: a small launcher that loads the client with its code cache
// (hooks/hook-launcher.ts), named by the client's hash in the same way.
const client = path.join(outdir, 'hook-client.js');
await buildLoaderOf(client, '__KIOKU_CLIENT_SHA256__', path.join(root, 'hooks', 'hook-launcher.ts'), path.join(outdir, 'kioku-hook.js'));

// `kioku memory recall` answered by the daemon, loaded by bin/kioku.js before the command parser:
// the assistant runs it whenever it needs the past, so it has a hook's start-up budget and the
// same kind of bundle. Only with the shipped client (the hooks bench builds hooks alone).
if (!process.argv[2]) {
  const fastDir = path.join(root, 'dist', 'cli-fast');
  mkdirSync(fastDir, { recursive: true });
  writeFileSync(path.join(fastDir, 'package.json'), `${JSON.stringify({ type: 'commonjs', private: true }, null, 2)}\n`);
  // A bundle that opens the index: better-sqlite3's JavaScript is bundled (loaded with the code
  // cache); its addon is named at run time (main/core/store/index/sqlite-addon.ts).
  const buildWithSqlite = (entry, out) =>
    build({
      ...shared,
      entryPoints: [path.join(root, 'main', 'cli', entry)],
      outfile: path.join(fastDir, out),
      external: ['opencc-js/*'],
      define: { ...shared.define, __KIOKU_BUNDLED_SQLITE__: 'true' },
    });
  // Without the daemon it recalls from the index with a bundle of its own, loaded only then.
  await buildWithSqlite('recall-direct-fast.ts', 'recall-direct-fast.js');
  // The applier a recall that finds the replay queue long starts, detached (main/cli/replay-applier.ts).
  await buildWithSqlite('apply-replays-child.ts', 'apply-replays.js');
  const fast = path.join(fastDir, 'recall-fast.js');
  const cli = path.join(root, 'main', 'cli');
  await buildLoaderOf(path.join(fastDir, 'recall-direct-fast.js'), '__KIOKU_DIRECT_SHA256__', path.join(cli, 'recall-fast.ts'), fast);
  // What bin/kioku.js loads: a small launcher that loads the fast path with its code cache
  // (main/cli/recall-launcher.ts), as kioku-hook.js loads the hook client.
  // Without a daemon's socket it loads the index bundle itself, skipping the fast path.
  await buildLoaderOf(
    fast,
    '__KIOKU_RECALL_FAST_SHA256__',
    path.join(cli, 'recall-launcher.ts'),
    path.join(fastDir, 'recall-launcher.js'),
    {
      __KIOKU_DIRECT_SHA256__: path.join(fastDir, 'recall-direct-fast.js'),
    },
  );
}
