import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { requireWithCodeCache } from '../../main/core/platform/fs/code-cached-require.js';
import { bundleEntry } from '../helpers/bundle-entry.js';
import { runModuleScript } from '../helpers/module-script.js';

/**
 * The hook's fallback bundle is required with V8's code cache (issue 17): it must give the module
 * exactly as `require` would, reuse the cache it wrote, never trust bytecode from a folder another
 * user could write into, and never fail because of a cache.
 */
let root: string | undefined;
afterEach(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function setUp(source: string): { bundle: string; cacheDir: string } {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-code-cache-'));
  const bundle = path.join(root, 'dist', 'bundle.js');
  fs.mkdirSync(path.dirname(bundle));
  fs.writeFileSync(bundle, source);
  return { bundle, cacheDir: path.join(root, 'state', 'cache') };
}

// A CommonJS bundle as esbuild writes one: module.exports, require of a built-in, __filename.
const SOURCE = `const path = require('node:path');
module.exports = { answer: (n) => n * 2, where: () => path.basename(__dirname) + '/' + path.basename(__filename) };`;

/**
 * One load in a fresh process, as each hook is: within one process V8 keeps what it compiled and
 * may never look at the cache, so whether the cache was taken is only told across processes.
 */
function loadInChild(
  bundle: string,
  cacheDir: string,
  builtHash?: string,
  route?: { name: string; call: string },
): { fromCache: boolean; answer: number } {
  const built = bundleEntry('main/core/platform/fs/code-cached-require.ts');
  // With a route: the bundle's function of that name runs before the answer, as a hook's path would.
  const script = `import { requireWithCodeCache } from ${JSON.stringify(pathToFileURL(built).href)};
const [bundle, cacheDir, builtHash, route, call] = process.argv.slice(1);
const loaded = requireWithCodeCache(bundle, cacheDir, builtHash || undefined);
if (call) loaded.exports[call]();
const answer = loaded.exports.answer(2);
loaded.save(route || undefined);
process.stdout.write(JSON.stringify({ fromCache: loaded.fromCache, answer }));`;
  const args = [bundle, cacheDir, builtHash ?? '', route?.name ?? '', route?.call ?? ''];
  return runModuleScript<{ fromCache: boolean; answer: number }>(script, args);
}

const cacheFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

describe('requireWithCodeCache', () => {
  it('gives the module as require would, writes the cache once, and takes it the next time', () => {
    const { bundle, cacheDir } = setUp(SOURCE);
    const first = requireWithCodeCache<{ answer(n: number): number; where(): string }>(bundle, cacheDir);
    expect(first.exports.answer(21)).toBe(42);
    expect(first.exports.where()).toBe('dist/bundle.js');
    expect(first.fromCache).toBe(false);
    first.save();
    const [written] = cacheFiles(cacheDir);
    expect(written).toMatch(new RegExp(`^bundle-[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.v8cache$`));
    expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(cacheDir, written!)).mode & 0o777).toBe(0o600);
    expect(loadInChild(bundle, cacheDir)).toEqual({ fromCache: true, answer: 4 });
    expect(cacheFiles(cacheDir)).toEqual([written]);
  });

  it('a changed bundle gets its own cache, and the old one is removed', () => {
    const { bundle, cacheDir } = setUp(SOURCE);
    requireWithCodeCache(bundle, cacheDir).save();
    const [old] = cacheFiles(cacheDir);
    // Same length, other code: V8 alone would take the old bytecode for it.
    fs.writeFileSync(bundle, SOURCE.replace('n * 2', 'n * 3'));
    expect(loadInChild(bundle, cacheDir)).toEqual({ fromCache: false, answer: 6 });
    expect(cacheFiles(cacheDir)).toHaveLength(1);
    expect(cacheFiles(cacheDir)).not.toContain(old);
  });

  it('with the hash its build baked in: no hashing at load, and a bundle edited since its build is a miss', () => {
    const { bundle, cacheDir } = setUp(SOURCE);
    const builtHash = 'ab'.repeat(32);
    expect(loadInChild(bundle, cacheDir, builtHash)).toEqual({ fromCache: false, answer: 4 });
    const [written] = cacheFiles(cacheDir);
    expect(written).toMatch(/^bundle-abababababababab-[0-9a-z]+-[0-9a-z]+-v/);
    expect(loadInChild(bundle, cacheDir, builtHash)).toEqual({ fromCache: true, answer: 4 });
    // Same length, other code, the same hash claimed (the client was not rebuilt with it): the
    // file's modification time names another cache, so the old bytecode is never run for it.
    const { mtime } = fs.statSync(bundle);
    fs.writeFileSync(bundle, SOURCE.replace('n * 2', 'n * 3'));
    fs.utimesSync(bundle, mtime, new Date(mtime.getTime() + 1000));
    expect(loadInChild(bundle, cacheDir, builtHash)).toEqual({ fromCache: false, answer: 6 });
    expect(cacheFiles(cacheDir)).toHaveLength(1);
    expect(cacheFiles(cacheDir)).not.toContain(written);
  });

  it('a garbled cache is refused by V8: the module still loads and the cache is written anew', () => {
    const { bundle, cacheDir } = setUp(SOURCE);
    requireWithCodeCache(bundle, cacheDir).save();
    const file = path.join(cacheDir, cacheFiles(cacheDir)[0]!);
    fs.writeFileSync(file, Buffer.from('not bytecode at all'));
    expect(loadInChild(bundle, cacheDir)).toEqual({ fromCache: false, answer: 4 });
    expect(fs.statSync(file).size).toBeGreaterThan(100);
    expect(loadInChild(bundle, cacheDir)).toEqual({ fromCache: true, answer: 4 });
  });

  it('is written again, once, for each route it was not made on, with what that route compiled', () => {
    // Two paths through one bundle, each with code only it runs: a cache made after the first holds
    // nothing of the second, which V8 then compiles in every run that takes it.
    const body = (name: string) =>
      `${name}: () => { let s = 0; for (let i = 0; i < 3; i++) { s += [${Array.from({ length: 40 }, (_, i) => `'${name}${i}'.length`).join(', ')}].reduce((a, b) => a + b, 0); } return s; },`;
    const { bundle, cacheDir } = setUp(`module.exports = { answer: (n) => n * 2, ${body('prompt')} ${body('start')} };`);
    const file = () => path.join(cacheDir, cacheFiles(cacheDir)[0]!);
    expect(loadInChild(bundle, cacheDir, undefined, { name: 'session-start/daemon', call: 'start' })).toEqual({
      fromCache: false,
      answer: 4,
    });
    const first = fs.readFileSync(file());
    expect(first.subarray(0, 4).toString()).toBe('KCC1');
    expect(first.toString('latin1')).toContain('session-start/daemon');

    // The same route again: taken, not written.
    const before = fs.statSync(file());
    expect(loadInChild(bundle, cacheDir, undefined, { name: 'session-start/daemon', call: 'start' })).toEqual({
      fromCache: true,
      answer: 4,
    });
    expect(fs.statSync(file()).ino).toBe(before.ino);

    // A new route: taken, then written again with the functions it ran as well.
    expect(loadInChild(bundle, cacheDir, undefined, { name: 'user-prompt-submit/silent', call: 'prompt' })).toEqual({
      fromCache: true,
      answer: 4,
    });
    const second = fs.readFileSync(file());
    expect(fs.statSync(file()).ino).not.toBe(before.ino);
    expect(second.toString('latin1')).toContain('session-start/daemon\nuser-prompt-submit/silent');
    expect(second.length).toBeGreaterThan(first.length + 200);

    // Both routes are now in it: neither writes it again, and V8 takes it for each.
    const after = fs.statSync(file()).ino;
    expect(loadInChild(bundle, cacheDir, undefined, { name: 'user-prompt-submit/silent', call: 'prompt' })).toEqual({
      fromCache: true,
      answer: 4,
    });
    expect(loadInChild(bundle, cacheDir, undefined, { name: 'session-start/daemon', call: 'start' })).toEqual({
      fromCache: true,
      answer: 4,
    });
    expect(fs.statSync(file()).ino).toBe(after);
  });

  it("takes an older launcher's cache (V8's data alone), and writes it again on the first route", () => {
    const { bundle, cacheDir } = setUp(SOURCE);
    loadInChild(bundle, cacheDir);
    const file = path.join(cacheDir, cacheFiles(cacheDir)[0]!);
    const withTag = fs.readFileSync(file);
    // What launchers before the routes wrote: the data without the tag and its (empty) routes.
    fs.writeFileSync(file, withTag.subarray(6 + withTag.readUInt16LE(4)));
    expect(loadInChild(bundle, cacheDir)).toEqual({ fromCache: true, answer: 4 });
    expect(loadInChild(bundle, cacheDir, undefined, { name: 'stop/daemon', call: 'where' })).toEqual({ fromCache: true, answer: 4 });
    expect(fs.readFileSync(file).subarray(0, 4).toString()).toBe('KCC1');
    expect(fs.readFileSync(file).toString('latin1')).toContain('stop/daemon');
  });

  it('never reads or writes a cache in a folder others can write into', () => {
    const { bundle, cacheDir } = setUp(SOURCE);
    requireWithCodeCache(bundle, cacheDir).save();
    const [written] = cacheFiles(cacheDir);
    const before = fs.statSync(path.join(cacheDir, written!)).mtimeMs;
    fs.chmodSync(cacheDir, 0o777);
    expect(loadInChild(bundle, cacheDir)).toEqual({ fromCache: false, answer: 4 });
    expect(cacheFiles(cacheDir)).toEqual([written]);
    expect(fs.statSync(path.join(cacheDir, written!)).mtimeMs).toBe(before);
  });

  it('a cache that cannot be written costs nothing but the cache', () => {
    const { bundle, cacheDir } = setUp(SOURCE);
    fs.mkdirSync(path.dirname(cacheDir), { recursive: true });
    fs.writeFileSync(cacheDir, 'a file where the folder should be');
    const loaded = requireWithCodeCache<{ answer(n: number): number }>(bundle, cacheDir);
    expect(() => loaded.save()).not.toThrow();
    expect(loaded.exports.answer(3)).toBe(6);
  });
});
