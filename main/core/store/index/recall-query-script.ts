import { guardScript } from '../../platform/privacy/script-guard.js';

const HAN = /\p{Script=Han}/u;

/**
 * Memories are stored in Traditional Chinese (PRIV-2 guards every write), but people type
 * queries in whichever script their keyboard gives: `头发` must find `頭髮`. The query goes
 * through the same guard as the files, so both sides meet in one script. Queries with no Han
 * character skip the guard (and the cost of loading OpenCC).
 */
export async function recallQueryInStoredScript(query: string): Promise<string> {
  if (!HAN.test(query)) return query;
  return (await guardScript(query)).text;
}
