import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ownRequire } from './own-require.js';

/**
 * `require` of a CommonJS bundle with V8's code cache (issue 17, X-PERF). Compiling the hook's
 * 240 KB fallback bundle is half of loading it (about 26 → 13 ms for every hook that answers
 * without the daemon); Node 22 has `module.enableCompileCache` for this, Node 20 has nothing.
 * Design notes: docs/design-notes.md, "hooks/code-cached-require.ts".
 *
 * Cached bytecode is code: it is kept only in the user's own private folder (never the shared
 * temp folder, where another user could plant it), and named by the bundle's content hash and
 * Node's version, because V8 itself checks little more than the source's length.
 */
export interface CodeCachedModule<T> {
  exports: T;
  /** Whether V8 took the cached code (for tests and traces). */
  fromCache: boolean;
  /**
   * Write the cache when there was none that fitted, or when this run went a way the cache was not
   * made on (`route`: an event and how it was answered, say); call after the module has run, when
   * what it ran is compiled too. Never throws.
   */
  save(route?: string): void;
}

/** A module imported the usual way (run from source, ESM): nothing cached, nothing to save. */
export function notCodeCached<T>(exports: T): CodeCachedModule<T> {
  return { exports, fromCache: false, save: () => undefined };
}

const EXTENSION = '.v8cache';
/**
 * A cache file: this tag, the routes it was made on (u16 length, then their names, one per line),
 * then V8's data. V8 caches only the functions compiled when the cache is made, so a client cache
 * written after a SessionStart lacked what a prompt runs, and every prompt compiled that again:
 * 0.5 ms of each, and a millisecond of its wall time (design notes). A run on a route the cache
 * does not name writes it again, with all that is compiled by then (what the cache gave, and
 * this run's own): once per route and build. A file without the tag is V8's data alone (older
 * launchers wrote those), made on no known route.
 */
const TAG = 0x4b434331; // 'KCC1'
const HEADER = 6;
/** Beyond this many routes a cache is not written again: a caller naming routes without bound must not rewrite it on every run. */
const MAX_ROUTES = 64;

interface CacheFile {
  data: Buffer;
  routes: string[];
}

/** One line of the header, short enough that MAX_ROUTES of them fit its 16-bit length. */
const isRouteName = (route: string) => route !== '' && route.length <= 200 && !route.includes('\n');

function readCacheFile(file: string): CacheFile | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length < HEADER || bytes.readUInt32BE(0) !== TAG) return { data: bytes, routes: [] };
  const end = HEADER + bytes.readUInt16LE(4);
  const names = bytes.toString('utf8', HEADER, end);
  return { data: bytes.subarray(end), routes: names ? names.split('\n') : [] };
}

function cacheFileBytes(routes: readonly string[], data: Buffer): Buffer {
  const names = Buffer.from(routes.join('\n'), 'utf8');
  const header = Buffer.alloc(HEADER);
  header.writeUInt32BE(TAG, 0);
  header.writeUInt16LE(names.length, 4);
  return Buffer.concat([header, names, data]);
}
/**
 * Node's CommonJS module wrapper (`Module.wrap`), written out: reading it from node:module loads
 * that module in every hook (0.2 ms) for two constant strings. The cache's name changes with the
 * bundle, so a cache compiled with another wrapper is never offered.
 */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
/** What a killed hook may leave: the temp name `save` writes under. */
const TEMP = /^\..+\.\d+\.tmp$/;

/**
 * node:crypto and node:vm are required when a hook first needs them, not imported: the hook
 * client's bundle loads its imported built-ins at start (builtin-imports-plugin.mjs), and crypto
 * with the streams it pulls in is about 3 ms of every hook, most of which never fall back.
 * For the same reason nothing here imports the atomic writer (it imports crypto).
 */
const crypto = () => ownRequire()('node:crypto') as typeof import('node:crypto');
const vm = () => ownRequire()('node:vm') as typeof import('node:vm');

/**
 * A bundle beside the one this code runs in, when it runs as a shipped CommonJS bundle (which
 * has `__dirname`); undefined from source, or when there is no such file. Not `require.resolve`:
 * it walks Node's resolution, package.json lookups included — 0.75 ms of a fresh process, on
 * every hook answered from the files and every recall without the daemon (issue 17).
 */
export function siblingBundle(name: string): string | undefined {
  if (typeof __dirname !== 'string') return undefined;
  const file = path.join(__dirname, name);
  return fs.existsSync(file) ? file : undefined;
}

/** A folder only this user can write into: anything else in it may have been planted. */
function isPrivateFolder(dir: string): boolean {
  try {
    const stat = fs.statSync(dir);
    const uid = process.getuid?.();
    return stat.isDirectory() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * `builtHash`: the bundle's SHA-256 as its build wrote it (scripts/build-hooks.mjs bakes it into
 * the client), so that a hook need not load node:crypto to hash 240 KB — about 8 ms. The file's
 * size and modification time go into the cache's name with it: a bundle edited or replaced since
 * its build is then a cache miss, never another bundle's code. Without it, the content is hashed.
 * `siblingRequire`: a require that resolves from `file`'s own folder (the caller's, when the bundle
 * sits beside it), given to the module as its own; createRequire(file) costs a start about 0.4 ms.
 */
export function requireWithCodeCache<T>(
  file: string,
  cacheDir: string,
  builtHash?: string,
  siblingRequire?: NodeJS.Require,
): CodeCachedModule<T> {
  const fd = fs.openSync(file, 'r');
  let source: string;
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(fd);
    source = fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
  const name = path.basename(file, '.js');
  const identity = builtHash
    ? `${builtHash.slice(0, 16)}-${stat.size.toString(36)}-${Math.trunc(stat.mtimeMs * 1000).toString(36)}`
    : crypto().createHash('sha256').update(source).digest('hex').slice(0, 16);
  const cacheFile = path.join(cacheDir, `${name}-${identity}-${process.version}-${process.arch}${EXTENSION}`);
  const trusted = isPrivateFolder(cacheDir);
  const cached = trusted ? readCacheFile(cacheFile) : undefined;
  const cachedData = cached?.data;
  // Code compiled here has no loader for import(): on Node 20 that takes an experimental flag or
  // prints an experimental warning. The bundles loaded this way require what they load lazily
  // (opencc-tables.ts); shipped-client.test.ts checks that they hold no import().
  const script = new (vm().Script)(wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  const module = { exports: {} as T };
  const compiled = script.runInThisContext() as (
    exports: T,
    require: NodeRequire,
    module: { exports: T },
    filename: string,
    dirname: string,
  ) => void;
  compiled.call(module.exports, module.exports, siblingRequire ?? createRequire(file), module, file, path.dirname(file));
  return {
    exports: module.exports,
    fromCache,
    save(route) {
      const routes = fromCache ? cached!.routes : [];
      const named = route !== undefined && isRouteName(route) && !routes.includes(route) ? route : undefined;
      if (fromCache && (named === undefined || routes.length >= MAX_ROUTES)) return;
      const made = named === undefined ? routes : [...routes, named];
      try {
        // Created here (0700) when missing; a folder that exists but is not private is left alone.
        if (!fs.existsSync(cacheDir)) fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
        if (!isPrivateFolder(cacheDir)) return;
        // The caches of earlier bundles and Node versions, and temp files a killed hook left.
        for (const old of fs.readdirSync(cacheDir))
          if ((old.startsWith(`${name}-`) && old.endsWith(EXTENSION) && old !== path.basename(cacheFile)) || TEMP.test(old))
            fs.rmSync(path.join(cacheDir, old), { force: true });
        // Whole or not at all: written under a temp name, then renamed (a cache needs no fsync).
        const temp = path.join(cacheDir, `.${path.basename(cacheFile)}.${process.pid}.tmp`);
        fs.writeFileSync(temp, cacheFileBytes(made, script.createCachedData()), { mode: 0o600 });
        fs.renameSync(temp, cacheFile);
      } catch {
        /* a cache is never a reason to fail: the next hook compiles again */
      }
    },
  };
}
