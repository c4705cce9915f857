import { AMBIGUOUS_SIMPLIFIED, isAlsoTraditional, isAmbiguousSimplified } from './ambiguous-hanzi.js';

/**
 * PRIV-2, seed 000 §繁簡防線: the prompts ask for Traditional Chinese, yet whole memories arrived
 * in Simplified (summary and tags included), so everything written (inbox, consolidation,
 * bonds, digests) passes this guard first. Conversion is OpenCC's Simplified → Traditional
 * (Taiwan) at the glyph level only; wording (反饋 vs 回饋) stays the prompts' job.
 *
 * How ambiguity is handled. OpenCC segments the text by longest match against its phrase table
 * (头发 → 頭髮, 理发 → 理髮, 皇后 → 皇后) and converts what is left character by character. A
 * one-to-many character (发 → 發/髮) that is matched as part of a phrase is safe: the phrase is
 * the context. One left on its own would get OpenCC's first candidate — the mechanical
 * replacement that turns 头发 into 頭發, "比留著簡體更難發現，因為它看起來已經是繁體了". So a lone character listed in
 * ambiguous-hanzi.ts is kept as written and named in a warning, for the consolidation (or a
 * person) to fix with context: "寧可留下可偵測的瑕疵，也不要製造隱形的錯誤".
 *
 * Traditional text must come back untouched, so a text is converted only when it contains a
 * Simplified-only character: one OpenCC would change, that never appears on the Traditional side
 * of OpenCC's own tables (后, 干, 里, 吃 do: 皇后, 干涉, 公里, 吃飯) and is not itself a Traditional
 * character according to ambiguous-hanzi.ts.
 */
export interface ScriptGuardResult {
  text: string;
  /** True when the returned text differs from the input. */
  converted: boolean;
  /** One line per ambiguous character left unconverted (and a line if OpenCC could not load). */
  warnings: string[];
}

interface OpenccTables {
  /** Longest-match lookup over OpenCC's phrase and character tables, Simplified → Traditional. */
  match(text: string, at: number): { end: number; value: string } | null;
  /** OpenCC standard Traditional → Taiwan glyphs (裏 → 裡, 麪 → 麵, 着 → 著). */
  toTaiwan(text: string): string;
  simplifiedOnly: ReadonlySet<string>;
}

let tablesPromise: Promise<OpenccTables> | undefined;

/**
 * Characters OpenCC would change on their own, minus those that also occur on the Traditional
 * side of its tables. The tables are scanned as the raw `key value|key value` strings they ship
 * as: splitting ~400 KB of phrases into arrays first costs several times more.
 */
function findSimplifiedOnly(dicts: readonly string[], toTaiwan: (text: string) => string): Set<string> {
  const changed = new Set<string>();
  for (const dict of dicts) {
    for (const [, from = '', to = ''] of dict.matchAll(/(?:^|\|)([^ |]{1,2}) ([^|]+)/g)) {
      if ([...from].length === 1 && toTaiwan(to) !== from && !isAlsoTraditional(from)) changed.add(from);
    }
  }
  for (const dict of dicts) {
    let inValue = false;
    for (const char of dict) {
      if (char === '|') inValue = false;
      else if (char === ' ') inValue = true;
      else if (inValue) changed.delete(char);
    }
  }
  return changed;
}

/**
 * opencc-js weighs about 1 MB: load it once, on the first Chinese text. Its phrase trie takes a
 * few hundred ms more, so it is built only when a text actually needs converting.
 */
function loadTables(): Promise<OpenccTables> {
  tablesPromise ??= import('opencc-js/cn2t').then(({ Locale, Trie, ConverterFactory }) => {
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
    return { match, toTaiwan, simplifiedOnly: findSimplifiedOnly(dicts, toTaiwan) };
  });
  return tablesPromise;
}

const HAN = /\p{Script=Han}/u;

function ambiguityWarning(char: string): string {
  const candidates = [...(AMBIGUOUS_SIMPLIFIED[char] ?? '')].join(' or ');
  return `kept "${char}" as written: it may be ${candidates}, and no word around it tells which (fix it by hand or at the next consolidation)`;
}

function convert(text: string, tables: OpenccTables): { text: string; lone: Set<string> } {
  const lone = new Set<string>();
  let out = '';
  for (let at = 0; at < text.length; ) {
    const match = tables.match(text, at);
    if (!match) {
      // Not in the Simplified tables, but maybe a non-Taiwan glyph (着 → 著), as in OpenCC's s2tw.
      const char = String.fromCodePoint(text.codePointAt(at)!);
      out += tables.toTaiwan(char);
      at += char.length;
      continue;
    }
    const source = text.slice(at, match.end);
    if ([...source].length === 1 && isAmbiguousSimplified(source)) {
      lone.add(source);
      out += source;
    } else {
      out += tables.toTaiwan(match.value);
    }
    at = match.end;
  }
  return { text: out, lone };
}

/**
 * Simplified → Traditional (Taiwan) for text about to be written. Never throws and never loses
 * text: on any failure the input comes back as it was, with a warning.
 */
export async function guardScript(text: string): Promise<ScriptGuardResult> {
  if (!HAN.test(text)) return { text, converted: false, warnings: [] };
  try {
    const tables = await loadTables();
    if (![...text].some((char) => tables.simplifiedOnly.has(char))) return { text, converted: false, warnings: [] };
    const result = convert(text, tables);
    return { text: result.text, converted: result.text !== text, warnings: [...result.lone].map(ambiguityWarning) };
  } catch (error) {
    return { text, converted: false, warnings: [`Simplified → Traditional check skipped (${(error as Error).message}); text kept as written`] };
  }
}
