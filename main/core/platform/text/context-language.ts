/**
 * The language of injected text (X-I18N: "injected text in the role's language"). Kioku ships the
 * shared rules and every label in Traditional Chinese (Taiwan) and English; a role written in
 * any CJK script gets zh-TW (the role skill's own roles are all Chinese), anything else English.
 */
export type ContextLanguage = 'zh-TW' | 'en';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function languageOfText(text: string, fallback: ContextLanguage = 'zh-TW'): ContextLanguage {
  if (CJK.test(text)) return 'zh-TW';
  return /[\p{L}]/u.test(text) ? 'en' : fallback;
}

/**
 * Name, nature and vibe decide: they are the text the role speaks from. An English role with a
 * Chinese alias still reads English rules (aliases are not injected, ROLE-6).
 */
export function languageOfRole(role: { name: string; nature: string; vibe: string }): ContextLanguage {
  return languageOfText(`${role.name}\n${role.nature}\n${role.vibe}`, 'en');
}

/** The zh-TW or English variant of a phrase. */
export function say(language: ContextLanguage, zh: string, en: string): string {
  return language === 'zh-TW' ? zh : en;
}

/** A list of words joined the way each language writes one (「a、b」 / "a, b"). */
export function joinWords(language: ContextLanguage, words: readonly string[]): string {
  return words.join(language === 'zh-TW' ? '、' : ', ');
}
