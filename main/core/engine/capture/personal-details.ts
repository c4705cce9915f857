/**
 * PRIV-3, seed 000 §使用者理解: "若使用者不同意或尚未回答，只能保存非個人化的操作規則與技術偏好，不保存可識別個人的資料".
 *
 * While consent is `declined` or `unknown`, the identifying details this module can recognise are
 * replaced before a turn reaches any condenser — so neither the local rules nor a model ever see
 * them, and nothing downstream can copy them into a memory or a bond. What it recognises:
 * - a name the user gives for themselves: 我叫…, 我的名字是/叫…, 叫我…就好, "my name is …",
 *   "call me …", "I'm called …";
 * - a home address: 我住在…, 住址/地址…, Taiwan addresses (…市…區…路…號), "I live at/in …",
 *   English street addresses (12 Baker Street).
 * It cannot recognise a name mentioned in passing ("小明說…") or a description that identifies
 * someone without a name; the prompt (resources/prompts/capture.zh-TW.md) asks the model for the
 * rest. E-mail, phone numbers and national IDs are masked for everyone by PRIV-1's redaction in
 * writeMemory, consent or not.
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
