// An esbuild plugin for the hook client's CommonJS bundles: Node built-ins imported once, as they
// are, instead of through esbuild's ESM interop. For `import fs from 'node:fs'` esbuild emits
// `__toESM(require("node:fs"))` at every importing module: a fresh object with one getter closure
// per export (about 54 KB of young heap for node:fs, 24 KB for node:os, 10 KB for node:path).
// Across the hook's modules that was about 360 KB — enough to set off a scavenge in every hook
// that asks the app, 2–3 ms in the middle of its round trip (X-PERF, seen with --trace-gc).
//
// Here each `node:*` import resolves to one small module per built-in that does
// `const m = require("node:fs")` and re-exports it: the default export is the module itself, and
// the named exports are its plain data properties (accessors such as `fs.promises`, which loads
// another module when read, are left out; a named import of one fails the build, loudly).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function shimSource(specifier) {
  const mod = require(specifier);
  const names = Object.getOwnPropertyNames(mod).filter((name) => {
    if (name === 'default' || !IDENTIFIER.test(name)) return false;
    const descriptor = Object.getOwnPropertyDescriptor(mod, name);
    return descriptor !== undefined && 'value' in descriptor;
  });
  return [`const m = require(${JSON.stringify(specifier)});`, 'export default m;', ...names.map((name) => `export const ${name} = m.${name};`)].join('\n');
}

export const builtinImports = {
  name: 'builtin-imports',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => {
      // The shim's own require() stays a plain require of the real module.
      if (args.kind === 'require-call') return { path: args.path, external: true };
      return { path: args.path, namespace: 'builtin-import' };
    });
    build.onLoad({ filter: /.*/, namespace: 'builtin-import' }, (args) => ({ contents: shimSource(args.path), loader: 'js' }));
  },
};
