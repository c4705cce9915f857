import { guardScript } from '../../platform/privacy/script-guard.js';
import { SIMPLIFIED_READINGS } from '../../platform/privacy/simplified-readings.js';

/**
 * True when some character of the text is one the script guard could change. Every such
 * character is Han (simplified-readings.test.ts), so no \p{Script=Han} test comes first: that
 * regex costs a fresh process about 0.2 ms to compile (issue 17).
 */
function mayNeedConversion(text: string): boolean {
  for (const char of text) if (SIMPLIFIED_READINGS.has(char)) return true;
  return false;
}

/**
 * Memories are stored in Traditional Chinese (PRIV-2 guards every write), but people type
 * queries in whichever script their keyboard gives: `头发` must find `頭髮`. The query goes
 * through the same guard as the files, so both sides meet in one script. Queries with no
 * character the guard could change (most Traditional ones: 頭髮, 部署流程) skip it, and the
 * cost of loading OpenCC — most of a CLI recall's time otherwise.
 */
export async function recallQueryInStoredScript(query: string): Promise<string> {
  if (!mayNeedConversion(query)) return query;
  return (await guardScript(query)).text;
}
