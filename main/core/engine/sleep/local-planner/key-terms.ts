import { matchForm } from '../../../platform/text/cue-words.js';

/**
 * Issue 12: the words that name what a preference or rule is about — tool names and identifiers
 * (pnpm, yarn, camelCase, snake_case, eslint), words in backticks or quotes (「分號」) — in matching
 * form (lowercase, NFKC). Character n-grams miss these: "請用 pnpm" and "套件一律 pnpm 裝" share
 * almost no bigrams but one decisive word. Used to merge paraphrases of one rule and to find the
 * memory a correction replaces.
 */
const IDENTIFIER = /[a-z][a-z0-9_.+#/-]*[a-z0-9+#]|[a-z]{2,}/gu;
const QUOTED = /[「『`“"]([^「」『』`“”"]{1,24})[」』`”"]/gu;

/** Plain English words that name no tool (besides the rule words themselves). */
const PLAIN = new Set(
  (
    'the and for you your with this that have has had was were are but not can could would should will just like from what when then than they them there their here about into also only some more very really ' +
    'please thanks thank okay yes let lets get got make made use used using need want does did done its always never instead longer anymore stop again keep our we us all any every each one it is be to of in on at by or as an if do so no me my i a ' +
    'code file files project projects test tests rule rules time way thing things new old now next'
  ).split(' '),
);

export function keyTermsOf(texts: readonly string[]): Set<string> {
  const form = matchForm(texts.join('\n'));
  const terms = new Set<string>();
  for (const match of form.matchAll(QUOTED)) {
    const term = match[1]!.trim();
    if (term && term.length <= 24 && !/\s{2,}/u.test(term)) terms.add(term);
  }
  for (const match of form.matchAll(IDENTIFIER)) {
    const term = match[0].replace(/[.\-/]+$/u, '');
    if (term.length >= 2 && !PLAIN.has(term)) terms.add(term);
  }
  return terms;
}

export function sharedTerms(a: ReadonlySet<string>, b: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const term of a) if (b.has(term)) out.push(term);
  return out;
}
