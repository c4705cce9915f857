import { matchForm } from '../../../platform/text/cue-words.js';
import type { PlanSupersede } from '../sleep-plan.js';
import type { ItemAnalysis } from './analyse-batch.js';
import type { ExistingAnalysis } from './existing-index.js';
import { keyTermsOf, sharedTerms } from './key-terms.js';
import type { Score } from './duplicates.js';

/**
 * Issue 12, X-LOCAL: the user replaces a preference or rule — 「改用 pnpm 了，不要再用 yarn」 after
 * 「我們用 yarn」. The older memory must stop being current (sleep-plan.ts `supersede`), so the new
 * item is neither merged into it nor left beside it as a second rule.
 *
 * An item replaces an existing memory when, in the user's own words,
 * - a replacement cue is said (改用, 換成, 不要再, 其實是, 以後不要, instead, no longer…), and
 * - the existing memory is a standing wish of the same kind (preference/rule for a preference or
 *   rule; the same type otherwise; never emotional or episodic, never one waiting for its PM-4
 *   correction), and
 * - it is on the same subject: it names what the user now rejects (the word after 不要再用 /
 *   instead of / no longer…), or, when no rejected word is named, it shares a key term with the
 *   item other than the new choice, or its text is close (REPLACE_SIMILARITY).
 * A memory that already names every new choice is not replaced: it says the same thing.
 */
const REPLACE_CUE =
  /改用|換成|換用|改成|改為|不要再|別再|不再|其實是|其實不是|以後不要|以後別|以後不用|不用再|instead|no longer|not anymore|any ?more|switch(?:ed)? to|stop using|changed? to/u;
const TERM = '([a-z][a-z0-9_.+#/-]*[a-z0-9+#]|[「『`“"][^「」『』`“”"]{1,24}[」』`”"])';
const REJECTED = [
  new RegExp(`(?:不要再?|別再?|不再|不用再?|停止)(?:用|使用|寫|裝|跑)?\\s*${TERM}`, 'gu'),
  new RegExp(`(?:而不是|不是|取代|代替)\\s*${TERM}`, 'gu'),
  new RegExp(`(?:instead of|rather than|no longer use|stop using|don'?t use|do not use|not)\\s+${TERM}`, 'gu'),
];
const CHOSEN = [
  new RegExp(`(?:改用|換成|換用|改成|改為|其實是|請用|一律用?|都用)\\s*${TERM}`, 'gu'),
  new RegExp(`(?:switch(?:ed)? to|use|prefer|changed? to)\\s+${TERM}`, 'gu'),
];
/** Text closeness that makes a replacement without a shared key term (CJK-only wishes). */
export const REPLACE_SIMILARITY = 0.3;
const STANDING = new Set(['preference', 'rule']);

function termsMatched(form: string, patterns: readonly RegExp[]): Set<string> {
  const out = new Set<string>();
  for (const pattern of patterns) for (const match of form.matchAll(pattern)) for (const term of keyTermsOf([match[1]!])) out.add(term);
  return out;
}

export interface Replacement {
  /** The user's words, in matching form. */
  form: string;
  rejected: Set<string>;
  chosen: Set<string>;
  terms: Set<string>;
}

const replacementCache = new WeakMap<ItemAnalysis, Replacement | null>();
const termCache = new WeakMap<object, Set<string>>();

/** What an item replaces, when its user words carry a replacement cue; undefined otherwise. */
export function replacementOf(item: ItemAnalysis): Replacement | undefined {
  let known = replacementCache.get(item);
  if (known === undefined) replacementCache.set(item, (known = readReplacement(item) ?? null));
  return known ?? undefined;
}

function oldTerms(ref: ExistingAnalysis): Set<string> {
  let terms = termCache.get(ref.ref);
  if (!terms) termCache.set(ref.ref, (terms = keyTermsOf([ref.ref.summary, ref.ref.body ?? ref.ref.gist, ...ref.ref.tags])));
  return terms;
}

function readReplacement(item: ItemAnalysis): Replacement | undefined {
  const said = item.parts.userWords.length ? item.parts.userWords : [item.item.summary];
  const form = matchForm(said.join('\n'));
  if (!REPLACE_CUE.test(form)) return undefined;
  return { form, rejected: termsMatched(form, REJECTED), chosen: termsMatched(form, CHOSEN), terms: keyTermsOf(said) };
}

function sameKind(newType: string, oldType: string): boolean {
  if (oldType === 'emotional' || oldType === 'episodic' || newType === 'emotional') return false;
  return STANDING.has(newType) ? STANDING.has(oldType) : newType === oldType;
}

/** Whether `ref` is what the group's replacement cue replaces. */
export function replaces(group: readonly ItemAnalysis[], ref: ExistingAnalysis, score: Score): boolean {
  for (const item of group) {
    if (!sameKind(item.classification.memory_type, ref.ref.memory_type) || ref.ref.needsCorrection) continue;
    const replacement = replacementOf(item);
    if (!replacement) continue;
    const old = oldTerms(ref);
    const chosen = [...replacement.chosen];
    if (chosen.length && chosen.every((term) => old.has(term)) && !sharedTerms(replacement.rejected, old).length) continue;
    if (replacement.rejected.size) {
      if (sharedTerms(replacement.rejected, old).length) return true;
      continue;
    }
    const shared = sharedTerms(replacement.terms, old).filter((term) => !replacement.chosen.has(term));
    if (shared.length || score(item, ref) >= REPLACE_SIMILARITY) return true;
  }
  return false;
}

/** At most this many older memories replaced by one new one (a correction names one subject). */
export const MAX_REPLACED = 3;

/** The existing memories a group replaces, strongest similarity first. */
export function replacedBy(group: readonly ItemAnalysis[], existing: readonly ExistingAnalysis[], score: Score): string[] {
  if (!group.some((item) => replacementOf(item))) return [];
  const found: { id: string; value: number; index: number }[] = [];
  for (const ref of existing) {
    if (!replaces(group, ref, score)) continue;
    let value = 0;
    for (const item of group) value = Math.max(value, score(item, ref));
    found.push({ id: ref.ref.id, value, index: ref.index });
  }
  found.sort((a, b) => b.value - a.value || a.index - b.index);
  return found.slice(0, MAX_REPLACED).map((f) => f.id);
}

/** The plan's supersede entries: each replaced memory once, by the memory (`by`: key or id) now current. */
export function supersessionsFor(
  entries: readonly { by: string; sources: readonly ItemAnalysis[]; replacing: readonly string[] }[],
): PlanSupersede[] {
  const out: PlanSupersede[] = [];
  const taken = new Set<string>();
  for (const entry of entries) {
    for (const target of entry.replacing) {
      if (taken.has(target) || target === entry.by) continue;
      taken.add(target);
      out.push({ target, by: entry.by, reason: reasonOf(entry.sources) });
    }
  }
  return out;
}

function reasonOf(sources: readonly ItemAnalysis[]): string {
  const newest = sources[sources.length - 1]!;
  const words = (newest.parts.userWords[0] ?? newest.item.summary).replace(/\s+/gu, ' ').trim();
  return Array.from(words).length > 60 ? `${Array.from(words).slice(0, 59).join('')}…` : words;
}
