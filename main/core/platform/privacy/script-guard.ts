import { AMBIGUOUS_SIMPLIFIED, isAmbiguousSimplified } from './ambiguous-hanzi.js';
import { loadOpenccTables, type OpenccTables } from './opencc-tables.js';

/**
 * PRIV-2: everything written (inbox, consolidation, bonds, digests) passes this guard, which turns
 * Simplified Chinese into Traditional (Taiwan).
 * Design notes: docs/design-notes.md, "main/core/platform/privacy/script-guard.ts".
 */
export interface ScriptGuardResult {
  text: string;
  /** True when the returned text differs from the input. */
  converted: boolean;
  /** One line per ambiguous character left unconverted (and a line if OpenCC could not load). */
  warnings: string[];
}

interface ScriptPatterns {
  han: RegExp;
  kana: RegExp;
}
let scripts: ScriptPatterns | undefined;
/**
 * Made on first use: V8 builds a property escape's whole set when its regex is created, and a
 * module-level one cost every process that loads this module 0.4 ms (issue 17: a recall without
 * the daemon loads it and, for a query in Traditional, never guards anything). In a class:
 * esbuild (0.28) turns a literal with a property escape outside one into `new RegExp`.
 */
const scriptPatterns = (): ScriptPatterns => (scripts ??= { han: /[\p{Script=Han}]/u, kana: /[\p{Script=Hiragana}\p{Script=Katakana}]/u });
/** Splits after each sentence end or line break, keeping it with its sentence. */
const RUN_END = /(?<=[\n。！？!?])/u;

function ambiguityWarning(char: string): string {
  const candidates = [...(AMBIGUOUS_SIMPLIFIED[char] ?? '')].join(' or ');
  return `kept "${char}" as written: it may be ${candidates}, and no word around it tells which (fix it by hand or at the next consolidation)`;
}

function hasAny(text: string, set: ReadonlySet<string>): boolean {
  for (const char of text) if (set.has(char)) return true;
  return false;
}

/** True when some character has a Simplified reading (后, 么, 愿); cheaper than the phrase trie. */
function mayBeSimplified(run: string, tables: OpenccTables): boolean {
  for (const char of run) if (tables.chars.has(char) || isAmbiguousSimplified(char)) return true;
  return false;
}

function convertRun(run: string, tables: OpenccTables, lone: Set<string>): string {
  let out = '';
  for (let at = 0; at < run.length;) {
    const match = tables.match(run, at);
    if (!match) {
      // Not in the Simplified tables, but maybe a non-Taiwan glyph (着 → 著), as in OpenCC's s2tw.
      const char = String.fromCodePoint(run.codePointAt(at)!);
      out += tables.toTaiwan(char);
      at += char.length;
      continue;
    }
    const source = run.slice(at, match.end);
    if ([...source].length === 1 && isAmbiguousSimplified(source)) {
      lone.add(source);
      out += source;
    } else {
      out += tables.toTaiwan(match.value);
    }
    at = match.end;
  }
  return out;
}

/**
 * The phrase's Traditional form, or null when the phrase is not a Simplified spelling. A phrase
 * qualifies only if it changes and one changed character is a known Simplified form of its
 * replacement (OpenCC's character table or ambiguous-hanzi.ts). That keeps out phrases that are
 * already Traditional (皇后 → 皇后, 公里 → 公里) and mere variant choices OpenCC makes for
 * Taiwan (了解 → 瞭解), which are ordinary Traditional writing.
 */
function phraseConversion(source: string, value: string, tables: OpenccTables): string | null {
  const target = tables.toTaiwan(value);
  const from = [...source];
  const to = [...target];
  if (from.length < 2 || from.length !== to.length || target === source) return null;
  const simplifiedHere = from.some((char, i) => {
    const want = to[i]!;
    if (char === want) return false;
    const single = tables.chars.get(char);
    return (single !== undefined && tables.toTaiwan(single) === want) || (AMBIGUOUS_SIMPLIFIED[char]?.includes(want) ?? false);
  });
  return simplifiedHere ? target : null;
}

/** Applies phrase matches only; lone ambiguous characters are reported once a phrase proved the run Simplified. */
function convertPhrasesOnly(run: string, tables: OpenccTables, lone: Set<string>): string {
  let out = '';
  let changed = false;
  const loneHere: string[] = [];
  for (let at = 0; at < run.length;) {
    const match = tables.match(run, at);
    const end = match?.end ?? at + String.fromCodePoint(run.codePointAt(at)!).length;
    const source = run.slice(at, end);
    const phrase = match ? phraseConversion(source, match.value, tables) : null;
    if (phrase !== null) changed = true;
    else if (isAmbiguousSimplified(source)) loneHere.push(source);
    out += phrase ?? source;
    at = end;
  }
  if (changed) for (const char of loneHere) lone.add(char);
  return out;
}

function guardRuns(text: string, tables: OpenccTables): { text: string; lone: Set<string> } {
  const { han, kana } = scriptPatterns();
  const runs = text.split(RUN_END).map((run) => ({
    run,
    skip: !han.test(run) || kana.test(run),
    simplified: hasAny(run, tables.simplifiedOnly),
  }));
  const textIsSimplified = runs.some(({ skip, simplified }) => !skip && simplified);
  const lone = new Set<string>();
  let out = '';
  for (const { run, skip, simplified } of runs) {
    if (skip || (!simplified && hasAny(run, tables.traditionalOnly))) out += run;
    else if (textIsSimplified) out += convertRun(run, tables, lone);
    // Most Traditional runs carry a Traditional-only character; the rest rarely need the trie.
    else if (mayBeSimplified(run, tables)) out += convertPhrasesOnly(run, tables, lone);
    else out += run;
  }
  return { text: out, lone };
}

/**
 * Simplified → Traditional (Taiwan) for text about to be written. Never throws and never loses
 * text: on any failure the input comes back as it was, with a warning.
 */
export async function guardScript(text: string): Promise<ScriptGuardResult> {
  if (!scriptPatterns().han.test(text)) return { text, converted: false, warnings: [] };
  try {
    const result = guardRuns(text, await loadOpenccTables());
    return { text: result.text, converted: result.text !== text, warnings: [...result.lone].map(ambiguityWarning) };
  } catch (error) {
    return {
      text,
      converted: false,
      warnings: [`Simplified → Traditional check skipped (${(error as Error).message}); text kept as written`],
    };
  }
}
