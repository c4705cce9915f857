import { isAlsoTraditional } from './ambiguous-hanzi.js';

/**
 * OpenCC's Simplified → Traditional (Taiwan) tables, loaded once, plus the character sets the
 * script guard (script-guard.ts) uses to decide whether a run of text is Simplified at all.
 */
export interface OpenccTables {
  /** Longest-match lookup over OpenCC's phrase and character tables, Simplified → Traditional. */
  match(text: string, at: number): { end: number; value: string } | null;
  /** OpenCC standard Traditional → Taiwan glyphs (裏 → 裡, 麪 → 麵, 着 → 著). */
  toTaiwan(text: string): string;
  /** OpenCC's one-character table (发 → 發, 么 → 麼), standard Traditional glyphs. */
  chars: ReadonlyMap<string, string>;
  /** Never written in Traditional (们, 这, 头): one of them proves a run is Simplified. */
  simplifiedOnly: ReadonlySet<string>;
  /** Never written in Simplified (們, 這, 後, 響): one of them proves a run is Traditional. */
  traditionalOnly: ReadonlySet<string>;
}

/**
 * The tables are scanned as the raw `key value|key value` strings they ship as: splitting
 * ~400 KB of phrases into arrays first costs several times more.
 *
 * simplifiedOnly: characters OpenCC would change on their own, minus those that also occur on
 * the Traditional side of its tables (后, 干, 里, 吃 do: 皇后, 干涉, 公里, 吃飯) or that
 * ambiguous-hanzi.ts names as Traditional too.
 * traditionalOnly: characters on the Traditional side (and their Taiwan glyphs) that never occur
 * on the Simplified side — the Simplified side is real Simplified writing, so anything missing
 * from it is a character only Traditional writing uses.
 */
function scanTables(dicts: readonly string[], toTaiwan: (text: string) => string) {
  const chars = new Map<string, string>();
  const simplifiedOnly = new Set<string>();
  for (const dict of dicts) {
    for (const [, from = '', to = ''] of dict.matchAll(/(?:^|\|)([^ |]{1,2}) ([^|]+)/g)) {
      if ([...from].length !== 1) continue;
      chars.set(from, to);
      if (toTaiwan(to) !== from && !isAlsoTraditional(from)) simplifiedOnly.add(from);
    }
  }
  const simplifiedSide = new Set<string>();
  const traditionalSide = new Set<string>();
  for (const dict of dicts) {
    let inValue = false;
    for (const char of dict) {
      if (char === '|') inValue = false;
      else if (char === ' ') inValue = true;
      else (inValue ? traditionalSide : simplifiedSide).add(char);
    }
  }
  const traditionalOnly = new Set<string>();
  for (const char of traditionalSide) {
    simplifiedOnly.delete(char);
    for (const glyph of new Set([char, toTaiwan(char)])) if (!simplifiedSide.has(glyph)) traditionalOnly.add(glyph);
  }
  return { chars, simplifiedOnly, traditionalOnly };
}

let tablesPromise: Promise<OpenccTables> | undefined;

type Opencc = typeof import('opencc-js/cn2t');

/**
 * In the CommonJS bundles (the recall without the daemon, the hook fallback) opencc-js is
 * required, its `require` build (the same tables): those bundles may be compiled through vm for
 * their code cache (code-cached-require.ts), where import() has no loader on Node 20.
 */
function importOpencc(): Promise<Opencc> {
  if (typeof require === 'function' && typeof module === 'object') return Promise.resolve().then(() => require('opencc-js/cn2t') as Opencc);
  return import('opencc-js/cn2t');
}

/**
 * opencc-js weighs about 1 MB: load it once, on the first Chinese text. Its phrase trie takes a
 * few hundred ms more, so it is built only when a text actually needs a lookup.
 */
export function loadOpenccTables(): Promise<OpenccTables> {
  tablesPromise ??= importOpencc().then(({ Locale, Trie, ConverterFactory }) => {
    const [toStandard, toTaiwanGroup] = Locale.configs.s2tw?.conversionChain ?? [];
    if (!toStandard || !toTaiwanGroup) throw new Error('opencc-js has no s2tw conversion chain');
    const dicts = toStandard.filter((dict: unknown): dict is string => typeof dict === 'string');
    const toTaiwan = ConverterFactory(toTaiwanGroup);
    let trie: InstanceType<typeof Trie> | undefined;
    const match = (text: string, at: number) => {
      if (!trie) {
        trie = new Trie();
        trie.loadDictGroup(toStandard);
      }
      return trie.matchPrefix(text, at);
    };
    return { match, toTaiwan, ...scanTables(dicts, toTaiwan) };
  });
  return tablesPromise;
}
