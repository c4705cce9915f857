import { createRequire } from 'node:module';

/**
 * This code's own `require`, for what it loads only when first needed (node:net, node:vm, a
 * sibling bundle). In the shipped CommonJS bundles (scripts/build-hooks.mjs) it is the module
 * wrapper's: `createRequire(import.meta.url)` there first builds the bundle's file URL (node:url)
 * and then a require of its own — about a millisecond of every hook and fast recall that asks the
 * daemon (issue 17, measured in the design notes). Run from source (ESM: tests, the daemon), it is
 * made with createRequire, once. Both resolve from this file's folder, so they load the same.
 */
let made: NodeJS.Require | undefined;

export function ownRequire(): NodeJS.Require {
  if (made) return made;
  // esbuild's ESM bundles (the tests' children) have a `require` shim without `resolve`.
  made = typeof require === 'function' && typeof require.resolve === 'function' ? require : createRequire(import.meta.url);
  return made;
}
