/**
 * The hook protocol's two constants, apart from its zod schemas (hook-protocol.ts) so that the
 * hook client's fast path can use them without evaluating any schema (X-PERF).
 */
export const PROTOCOL_VERSION = 1;

/**
 * Longest line either side accepts, in bytes, newline excluded. A prompt or a transcript tail
 * fits many times over; anything bigger is a bug or an attack, and is answered, not buffered.
 */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
