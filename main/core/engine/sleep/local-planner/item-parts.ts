import type { InboxItem } from '../sleep-plan.js';

/**
 * Who said what in an inbox item. Capture writes its body as key points, one per line
 * (`- 使用者原話：…`, `- 角色當時的回應：…`, `- 有效範圍：…`; the English labels for English turns),
 * and an LLM condenser writes free key points. The planner needs the two sides apart: the user's
 * words make bonds and noise checks, and the role's answer must survive every merge (seed 000
 * §關係定位必須雙邊記錄: "合併或壓縮時刪掉角色的答覆 → 禁止").
 */
export interface ItemParts {
  /** The user's own words (labelled lines, else the first quote of the summary). */
  userWords: string[];
  /** The role's answer or feeling, when the item recorded one. */
  roleWords: string[];
  /** Other key points, as written (labels such as 主旨：/細節： dropped). */
  otherLines: string[];
  /** `有效範圍：…` / `Valid for: …` — the expiry capture wrote into the body (MEM-8). */
  scope?: string;
}

const USER_LINE = /^(?:使用者原話|使用者(?:說|表示|表達|提到)|user's words|user said)\s*[:：]\s*(.*)$/iu;
const ROLE_LINE = /^(?:角色當時的回應|角色的?回應|角色(?:說|表示|回答|答覆|的感受|感到)|role's answer|the role answered)\s*[:：]\s*(.*)$/iu;
const SCOPE_LINE = /^(?:有效範圍|valid for)\s*[:：]\s*(.*)$/iu;
const LABEL_ONLY = /^(?:主旨|細節|依據)\s*[:：]\s*$/u;
const GIST_LINE = /^主旨\s*[:：]/u;
/** Capture's "no reply" marker is not the role's words. */
const NO_ANSWER = /^[（(]?(?:角色本輪沒有文字回應|the role gave no text reply this turn)[）)]?$/iu;

/** The body's lines without list markers, blank lines dropped. */
export function bodyLines(body: string): string[] {
  return body
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(?:[-*•]\s+|\d+[.)]\s+)?/u, '').trim())
    .filter(Boolean);
}

/** The text inside the first 「…」 or "…" of a summary: the user's words as capture quoted them. */
export function firstQuote(summary: string): string | undefined {
  const match = /「([^」]+)」|“([^”]+)”|"([^"]+)"/u.exec(summary);
  return (match?.[1] ?? match?.[2] ?? match?.[3])?.trim() || undefined;
}

export function itemParts(item: Pick<InboxItem, 'summary' | 'body'>): ItemParts {
  const parts: ItemParts = { userWords: [], roleWords: [], otherLines: [] };
  for (const line of bodyLines(item.body)) {
    const user = USER_LINE.exec(line);
    const role = ROLE_LINE.exec(line);
    const scope = SCOPE_LINE.exec(line);
    if (user) {
      if (user[1]!.trim()) parts.userWords.push(user[1]!.trim());
    } else if (role) {
      const words = role[1]!.trim();
      if (words && !NO_ANSWER.test(words)) parts.roleWords.push(words);
    } else if (scope) {
      if (scope[1]!.trim()) parts.scope = scope[1]!.trim();
    } else if (!LABEL_ONLY.test(line) && !GIST_LINE.test(line)) {
      parts.otherLines.push(line);
    }
  }
  if (!parts.userWords.length && /^(?:使用者|user)/iu.test(item.summary.trim())) {
    const quoted = firstQuote(item.summary);
    if (quoted) parts.userWords.push(quoted);
  }
  return parts;
}
