// An esbuild plugin for the hook client's CommonJS bundles: Node built-ins imported once, as they
// are, instead of through esbuild's ESM interop.
// Design notes: docs/design-notes.md, "scripts/builtin-imports-plugin.mjs".
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
  return [
    `const m = require(${JSON.stringify(specifier)});`,
    'export default m;',
    ...names.map((name) => `export const ${name} = m.${name};`),
  ].join('\n');
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
