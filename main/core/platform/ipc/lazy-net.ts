import { createRequire } from 'node:module';

/**
 * node:net, loaded when first needed. It and the stream machinery under it are about 5 ms of a
 * hook's start (X-PERF), and a hook that answers alone — a prompt that names nobody — needs no
 * socket at all. `require`, not `import()`: in the hook's CommonJS bundle a dynamic import would
 * start Node's ESM loader, which costs more than it saves.
 */
let require: NodeJS.Require | undefined;

export function loadNet(): typeof import('node:net') {
  // The require itself is made on first use too: createRequire (and, in the hook's bundle, the
  // file URL it is given) is about half a millisecond of a start that may never need it.
  require ??= createRequire(import.meta.url);
  return require('node:net') as typeof import('node:net');
}
