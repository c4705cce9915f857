// An esbuild plugin for the hook client's CommonJS bundles: Node built-ins imported once, as they
// are, instead of through esbuild's ESM interop; node:crypto only when first called.
// Design notes: docs/design-notes.md, "scripts/builtin-imports-plugin.mjs".
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Built-ins loaded on a module's first call, not at the bundle's start: node:crypto and what it
 * pulls in is about 8 ms of a hook that answers without the daemon, and most of them (a
 * SessionStart, a call by name) never hash anything. node:os (0.2 ms) is only asked for the home
 * folder when HOME is unset, node:module (0.2 ms) only for createRequire, which the shipped
 * bundles never call. node:child_process (it loads net and the streams) only starts the replay
 * applier, once in some sixty recalls (main/cli/replay-applier.ts).
 */
const LAZY = new Set(['node:crypto', 'node:os', 'node:module', 'node:child_process']);

function exportedNames(mod) {
  return Object.getOwnPropertyNames(mod).filter((name) => {
    if (name === 'default' || !IDENTIFIER.test(name)) return false;
    const descriptor = Object.getOwnPropertyDescriptor(mod, name);
    return descriptor !== undefined && 'value' in descriptor;
  });
}

/**
 * Each named export is read through a call marked pure, so that esbuild drops the ones no module
 * imports: reading them all at start also ran the lazy getters among them (node:fs's `Dir`,
 * `opendir` load internal/fs/dir) and kept a line per export of every built-in in each bundle.
 */
function eagerShim(specifier, names) {
  return [
    `const m = require(${JSON.stringify(specifier)});`,
    'export default m;',
    ...names.map((name) => `export const ${name} = /* @__PURE__ */ (() => m.${name})();`),
  ].join('\n');
}

/**
 * Each function export is a stand-in that loads the module and calls (or constructs) the real
 * one; the default export is a proxy that loads it when a property is read. Other values (such
 * as `constants`) are not exported: a named import of one fails the build, loudly.
 */
function lazyShim(specifier, mod, names) {
  const functions = names.filter((name) => typeof mod[name] === 'function');
  return [
    'let loaded;',
    `const m = () => (loaded ??= require(${JSON.stringify(specifier)}));`,
    'export default new Proxy({}, { get: (_, key) => m()[key], has: (_, key) => key in m() });',
    ...functions.map(
      (name) =>
        `export function ${name}(...args) { return new.target ? Reflect.construct(m().${name}, args, new.target) : m().${name}.apply(this, args); }`,
    ),
  ].join('\n');
}

function shimSource(specifier) {
  const mod = require(specifier);
  const names = exportedNames(mod);
  return LAZY.has(specifier) ? lazyShim(specifier, mod, names) : eagerShim(specifier, names);
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
