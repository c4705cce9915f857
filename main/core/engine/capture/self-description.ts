import { PERSONAL_PLACEHOLDER } from './personal-details.js';
import { matchForm } from '../../platform/text/cue-words.js';

/**
 * Issue 12 (PRIV-3): what the user says about themselves (name, form of address, work, where they
 * live), kept only with consent.
 * Design notes: docs/design-notes.md, "main/core/engine/capture/self-description.ts".
 */
export interface SelfDescription {
  /** The name the user gives for themselves. */
  name?: string;
  /** How they want to be called. */
  address?: string;
  /** Background sentences (work, home town, what they do), as said. */
  background: string[];
  /** The sentences that said any of it. */
  sentences: string[];
}

const NAME = "([\\p{Script=Han}]{2,4}|[A-Z][A-Za-z'’-]+(?: [A-Z][A-Za-z'’-]+)?)";
const NAME_PATTERNS: readonly RegExp[] = [
  new RegExp(`我叫(?![你妳他她它們了過醒])\\s*${NAME}`, 'u'),
  new RegExp(`我的?名字(?:是|叫)\\s*${NAME}`, 'u'),
  // 我是王大同 — only as a whole clause, so 我是說/我是工程師 are not names.
  new RegExp(`(?:^|[，,。！!\\s])我是\\s*${NAME}(?=\\s*(?:[，,。．.！!～~]|$))`, 'u'),
  new RegExp(`\\b(?:[Mm]y name is|[Mm]y name's|I'm called|I am called)\\s+${NAME}`, 'u'),
];
/** Shortest first: 「叫我大同就好」 is 大同, not 大同就好. */
const NAME_LAZY = "([\\p{Script=Han}]{2,4}?|[A-Z][A-Za-z'’-]+(?: [A-Z][A-Za-z'’-]+)?)";
const ADDRESS_PATTERNS: readonly RegExp[] = [
  new RegExp(`(?:叫我|稱呼我|喊我)(?:為)?\\s*[「『"]?${NAME_LAZY}[」』"]?(?=\\s*(?:就好|就可以|就行|吧|即可|[，,。．.！!～~]|$))`, 'u'),
  new RegExp(`\\b[Cc]all me\\s+${NAME_LAZY}(?=\\s*(?:[,.!]|$))`, 'u'),
];
/** Words that follow 我是 / 我叫 without being a name. */
const NOT_A_NAME =
  /^(?:說|覺得|想|不是|在|要|會|有|真的|因為|這樣|那個|一個|個|你|妳|他|她|誰|什麼|怎麼|工程師|學生|老師|新手|使用者|用戶|開發者|設計師)/u;
/** 「我是認真的」「我是開玩笑啦」: a clause with grammar words in it is no name. */
const GRAMMAR_CHAR = /[的了嗎呢吧啊啦說想要會在是不很太都也就還笑故隨問]/u;
const BACKGROUND =
  /我(?:在|於).{1,12}(?:工作|上班|任職|念書|讀書|當)|我住在|我來自|我是(?:一[個名位])?[^，。,.]{0,10}(?:工程師|設計師|學生|老師|醫生|護理師|經理|作家|研究員|開發者|PM|產品經理)|我的(?:工作|職業|專業)是|\bi work (?:at|as|for)\b|\bi live in\b|\bi'?m an? [a-z ]{0,20}(?:engineer|developer|designer|student|teacher|manager|writer|researcher)\b/iu;

function found(sentence: string, patterns: readonly RegExp[]): string | undefined {
  for (const pattern of patterns) {
    const match = pattern.exec(sentence);
    const value = match?.[1]?.trim();
    if (value && !NOT_A_NAME.test(value) && !GRAMMAR_CHAR.test(value) && !value.includes(PERSONAL_PLACEHOLDER)) return value;
  }
  return undefined;
}

export function selfDescriptionOf(sentences: readonly string[]): SelfDescription | undefined {
  const out: SelfDescription = { background: [], sentences: [] };
  for (const sentence of sentences) {
    if (sentence.includes(PERSONAL_PLACEHOLDER)) continue;
    const name = found(sentence, NAME_PATTERNS);
    const address = found(sentence, ADDRESS_PATTERNS);
    const background = BACKGROUND.test(matchForm(sentence)) || BACKGROUND.test(sentence);
    if (name) out.name ??= name;
    if (address) out.address ??= address;
    if (background && !name && !address) out.background.push(sentence);
    if (name || address || background) out.sentences.push(sentence);
  }
  return out.sentences.length ? out : undefined;
}

/** The gist: the facts themselves, in the user's language. */
export function selfDescriptionGist(self: SelfDescription, zh: boolean): string {
  const parts: string[] = [];
  if (zh) {
    if (self.name) parts.push(`使用者名叫${self.name}`);
    if (self.address) parts.push(`希望被稱呼「${self.address}」`);
    for (const line of self.background) parts.push(`背景：${line.replace(/[。．.！!]+$/u, '')}`);
    return parts.join('，');
  }
  if (self.name) parts.push(`The user's name is ${self.name}`);
  if (self.address) parts.push(`they like to be called "${self.address}"`);
  for (const line of self.background) parts.push(`background: ${line.replace(/[.!]+$/u, '')}`);
  return parts.join('; ');
}
