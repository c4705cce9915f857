import { ownRequire } from '../fs/own-require.js';

/**
 * node:net, loaded when first needed. It and the stream machinery under it are about 5 ms of a
 * hook's start (X-PERF), and a hook that answers alone — a prompt that names nobody — needs no
 * socket at all. `require`, not `import()`: in the hook's CommonJS bundle a dynamic import would
 * start Node's ESM loader, which costs more than it saves.
 */
export function loadNet(): typeof import('node:net') {
  return ownRequire()('node:net') as typeof import('node:net');
}
