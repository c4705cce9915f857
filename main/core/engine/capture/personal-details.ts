/**
 * PRIV-3: while the user has declined or not answered, keep only impersonal working rules and
 * technical preferences, nothing that identifies the person.
 * Design notes: docs/design-notes.md, "main/core/engine/capture/personal-details.ts".
 */
export const PERSONAL_PLACEHOLDER = '[個人資料已省略]';

const HAN_NAME = '[\\p{Script=Han}]{1,4}';
const LATIN_NAME = "[A-Z][A-Za-z'’-]+(?:\\s[A-Z][A-Za-z'’-]+)?";

const PATTERNS: readonly RegExp[] = [
  // 我叫小明 — but not 我叫你/我叫他 (I call you / tell him to).
  new RegExp(`(我叫)(?![你妳他她它們了過醒])\\s*(?:${HAN_NAME}|${LATIN_NAME})`, 'gu'),
  new RegExp(`(我的名字|我名字)(?:是|叫)\\s*(?:${HAN_NAME}|${LATIN_NAME})`, 'gu'),
  // 叫我阿明就好 — only with a closing word, so 「你叫我改的檔案」 is left alone.
  new RegExp(`(叫我)\\s*[「『"]?(?:${HAN_NAME}|${LATIN_NAME})[」』"]?(?=\\s*(?:就好|就可以|就行|吧|即可|[。，,.!！]|$))`, 'gu'),
  new RegExp(`(my name is|my name's|call me|i'm called|i am called)\\s+${LATIN_NAME}`, 'giu'),
  /(我住在?|住址(?:是|：|:)?|地址(?:是|：|:)?)\s*[^\s，。,.!?！？]{2,40}/gu,
  /[\p{Script=Han}]{2,3}[市縣][\p{Script=Han}]{1,4}[區鄉鎮市][\p{Script=Han}\d]{1,10}(?:路|街|大道)[^，。\s]{0,20}?號(?:\d+樓)?/gu,
  /\b(i live (?:at|in|on))\s+[^.,!?\n]{2,60}/giu,
  /\b\d{1,5}\s+[A-Z][a-z]+(?:\s[A-Z][a-z]+)*\s+(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Boulevard|Blvd)\b\.?/gu,
];

export interface StrippedText {
  text: string;
  removed: number;
}

/** Replace recognisable personal details; the lead-in words (我叫, my name is) are kept for sense. */
export function stripPersonalDetails(text: string): StrippedText {
  let removed = 0;
  let out = text;
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (match: string, lead?: string) => {
      removed++;
      return typeof lead === 'string' && match.startsWith(lead) ? `${lead}${PERSONAL_PLACEHOLDER}` : PERSONAL_PLACEHOLDER;
    });
  }
  return { text: out, removed };
}
