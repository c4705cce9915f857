/**
 * Texts of random length drawn from an alphabet with a fixed seed (a linear congruential
 * generator): the same texts on every run, for tests that compare a hand-written classifier with
 * the Unicode-property regexes it stands in for (cjk-runs.test.ts, context-language.test.ts).
 */
export function randomTexts(alphabet: string, options: { count: number; maxLength: number; seed: number }): string[] {
  const characters = [...alphabet];
  let seed = options.seed;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: options.count }, () => {
    const length = Math.floor(random() * (options.maxLength + 1));
    return Array.from({ length }, () => characters[Math.floor(random() * characters.length)]!).join('');
  });
}
