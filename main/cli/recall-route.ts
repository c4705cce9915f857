/**
 * Which way a recall goes through the code, for its bundle's code cache (code-cached-require.ts
 * writes the cache again for a route it was not made on): a CJK run is searched as a phrase of
 * bigrams, other words as prefix terms (cjk-segmenter.ts), and `--json` prints through other
 * functions. Without this, the cache held only what the build's first recall ran.
 */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/;
const WORD = /[A-Za-z0-9]/;

export function recallRoute(query: string, json: boolean): string {
  const kinds = [CJK.test(query) ? 'cjk' : '', WORD.test(query) ? 'word' : ''].filter(Boolean).join('+') || 'other';
  return `recall/${kinds}${json ? '/json' : ''}`;
}
