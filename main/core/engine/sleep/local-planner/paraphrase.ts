import type { ItemAnalysis } from './analyse-batch.js';
import type { ExistingAnalysis } from './existing-index.js';
import { keyTermsOf, sharedTerms } from './key-terms.js';
import { replacementOf } from './replacements.js';

/**
 * Issue 12: paraphrases of one preference or rule, recognised by their shared decisive word, so
 * they merge instead of staying separate memories.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/local-planner/paraphrase.ts".
 */
export const KEY_TERM_SIMILARITY = 0.25;
const STANDING = new Set(['preference', 'rule']);

const itemTerms = new WeakMap<ItemAnalysis, Set<string>>();
const refTerms = new WeakMap<object, Set<string>>();

function termsOfItem(item: ItemAnalysis): Set<string> {
  let terms = itemTerms.get(item);
  if (!terms) itemTerms.set(item, (terms = keyTermsOf(item.parts.userWords.length ? item.parts.userWords : [item.item.summary])));
  return terms;
}

function termsOfRef(ref: ExistingAnalysis): Set<string> {
  let terms = refTerms.get(ref.ref);
  if (!terms) refTerms.set(ref.ref, (terms = keyTermsOf([ref.ref.summary, ref.ref.gist, ...ref.ref.tags])));
  return terms;
}

const standing = (item: ItemAnalysis) => STANDING.has(item.classification.memory_type) && !replacementOf(item);

const CJK = /[\u3400-\u9fff]/gu;
const LATIN = /[a-z]/giu;
/** Mostly Chinese (true), mostly Latin letters (false). */
const isMostlyCjk = (text: string) => (text.match(CJK)?.length ?? 0) >= (text.match(LATIN)?.length ?? 0);
const textOfItem = (item: ItemAnalysis) => (item.parts.userWords.length ? item.parts.userWords.join('\n') : item.item.summary);

/**
 * The same rule said once in Chinese and once in English (「別用 any，用 unknown 再收窄」 and "no
 * `any`, ever — use `unknown`"): character n-grams of two languages share nothing, so there the
 * key terms alone decide (the quality bench's rule said three times).
 */
function acrossLanguages(a: string, b: string, shared: number, value: number): boolean {
  return shared > 0 && (value >= KEY_TERM_SIMILARITY || isMostlyCjk(a) !== isMostlyCjk(b));
}

/** Two batch items of the same type and expiry, `value` alike: one rule said twice? */
export function sameRuleItems(a: ItemAnalysis, b: ItemAnalysis, value: number): boolean {
  if (!standing(a) || !standing(b)) return false;
  return acrossLanguages(textOfItem(a), textOfItem(b), sharedTerms(termsOfItem(a), termsOfItem(b)).length, value);
}

/** A batch item and an existing memory of its type, `value` alike: the same rule again? */
export function sameRuleAsRef(item: ItemAnalysis, ref: ExistingAnalysis, value: number): boolean {
  if (!standing(item) || !STANDING.has(ref.ref.memory_type)) return false;
  return acrossLanguages(
    textOfItem(item),
    `${ref.ref.summary}\n${ref.ref.gist}`,
    sharedTerms(termsOfItem(item), termsOfRef(ref)).length,
    value,
  );
}
