import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let madeDir: string | undefined;

/**
 * The folder of this code, for the resources found beside it (resources/agents/). In the shipped
 * CommonJS bundles (scripts/build-hooks.mjs) it is the module wrapper's `__dirname`: the bundle's
 * `import.meta.url` is made from `__filename` when first read, and building that file URL and
 * taking it apart again was about a millisecond of every SessionStart without the daemon (issue
 * 17). Run from source (ESM: tests, the daemon, the CLI) there is no `__dirname`, and the URL is used.
 */
export function ownDir(): string {
  // Made once: the daemon (from source) asks at every SessionStart, and taking the URL apart was 0.08 ms.
  return (madeDir ??= typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url)));
}

/**
 * What tells this bundle from another build of it: its size and modification time, in a shipped
 * CommonJS bundle; undefined from source. Caches of what the code derives from files
 * (store/roles/parsed-roles-file.ts) are kept only for the code that wrote them.
 */
export function ownBundleStamp(): string | undefined {
  if (typeof __filename !== 'string' || !__filename.endsWith('.js')) return undefined;
  const stat = fs.statSync(__filename, { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}` : undefined;
}
