import type { ConsolidatedCategory } from '../../../../common/memory.js';
import { matchForm } from './cue-words.js';

/**
 * Dictionary-free text helpers for the local condenser: sentences, a language guess, quoting,
 * tags and a category guess. Every function is total — any string in, a sensible value out.
 */

/** Longer texts are cut before the heuristics run: a turn's gist is never in its 20,001st character. */
const MAX_SCAN = 20_000;
const MAX_SENTENCES = 200;

/**
 * Fenced code blocks are dropped: a pasted file or log is not what a memory says (and would
 * drown the sentences). Inline code keeps its words — 「以後都用 `pnpm`」 is about pnpm.
 */
function withoutCode(text: string): string {
  return text.replace(/```[\s\S]*?(?:```|$)/g, ' ').replace(/`([^`\n]*)`/g, '$1');
}

/** Sentences: split after 。！？；!? and line breaks, and after ". " in Latin text. */
export function splitSentences(text: string): string[] {
  const scanned = withoutCode(String(text ?? '').slice(0, MAX_SCAN));
  return scanned
    .split(/(?<=[。！？；!?\n])|(?<=\.)\s+/u)
    .map((s) =>
      s
        .replace(/^[\s\-*•>#]+/u, '')
        .replace(/\s+/gu, ' ')
        .trim(),
    )
    .filter((s) => /[\p{L}\p{N}]/u.test(s))
    .slice(0, MAX_SENTENCES);
}

/** Chinese when Han characters are at least a fifth of the letters (mixed zh/English dev talk included). */
export function isChinese(text: string): boolean {
  const sample = String(text ?? '').slice(0, MAX_SCAN);
  const han = sample.match(/[\p{Script=Han}]/gu)?.length ?? 0;
  const letters = sample.match(/[\p{L}]/gu)?.length ?? 0;
  return han >= 2 && han * 5 >= letters;
}

/** At most `max` characters, cut at a character boundary, trailing punctuation dropped. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text.trim());
  const body = chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
  return body.replace(/[。．.，,；;：:\s]+$/u, '');
}

/** The user's words inside quotation marks: a quote is never an invented fact. */
export function quote(text: string, zh: boolean, max = 60): string {
  const inner = clip(text.replace(/[「」“”"]/gu, ''), max);
  return zh ? `「${inner}」` : `"${inner}"`;
}

const STOP_WORDS = new Set(
  "the and for you your with this that have has had was were are but not can could would should will just like from what when then than they them there their here about into also only some more very really please thanks thank okay yes let lets get got make made use used using need want does did done its it's i'm don't can't".split(
    ' ',
  ),
);
/** Characters that rarely start or end a content word: bigrams containing one are not tags. */
const FUNCTION_CHARS = new Set(
  Array.from(
    '的了是我你妳他她它們在有和就都也很不嗎呢吧啊喔哦呀嘛這那個一要會說到著把被讓給跟與及或而但如果因為所以還再又才已經可以能沒什麼怎麼樣些點下上中來去過得地之其',
  ),
);
const TOPIC_WORDS =
  /程式|部署|測試|建置|除錯|文件|設定|資料庫|前端|後端|介面|記憶|角色|會議|咖啡|音樂|遊戲|電影|動畫|小說|運動|旅行|貓|狗|家人|女兒|工作|壓力|睡眠|emoji|表情/gu;

/**
 * Tags: named things first (identifiers, acronyms, English nouns of 3+ letters), then known topic
 * words, then CJK bigrams the turn repeats — a repeated pair of characters is almost always a
 * word in it (X-SEARCH's bigram reasoning, without a dictionary).
 */
export function extractTags(texts: readonly string[], fixed: readonly string[], max = 6): string[] {
  // Redaction placeholders ([REDACTED:secret]) are not topics of the turn; the key word before one
  // (`token=`) is no topic either once its value is gone.
  const joined = withoutCode(texts.join('\n').slice(0, MAX_SCAN)).replace(/[\w-]*\s*[=:：]?\s*\[REDACTED:[^\]]*\]/g, ' ');
  const scores = new Map<string, number>();
  const add = (tag: string, score: number) => scores.set(tag, (scores.get(tag) ?? 0) + score);
  for (const word of joined.match(/[A-Za-z][A-Za-z0-9_.+#-]{1,30}/g) ?? []) {
    const clean = word.replace(/[.\-]+$/, '');
    const lower = clean.toLowerCase();
    const named = /[A-Z].*[A-Z]|\d|[._+#]/.test(clean) || /^[A-Z]{2,}$/.test(clean);
    if (!named && (clean.length < 4 || STOP_WORDS.has(lower))) continue;
    add(named ? clean : lower, named ? 2 : 1);
  }
  for (const word of matchForm(joined).match(TOPIC_WORDS) ?? []) add(word, 2);
  for (const run of joined.match(/[\p{Script=Han}]{2,}/gu) ?? []) {
    const chars = Array.from(run);
    for (let i = 0; i + 1 < chars.length; i++) {
      if (FUNCTION_CHARS.has(chars[i]!) || FUNCTION_CHARS.has(chars[i + 1]!)) continue;
      add(chars[i]! + chars[i + 1]!, 0.5);
    }
  }
  const ranked = [...scores.entries()]
    .filter(([, score]) => score >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(([tag]) => tag);
  const out: string[] = [];
  for (const tag of [...fixed, ...ranked]) {
    if (out.length >= max) break;
    if (!out.some((have) => have.toLowerCase() === tag.toLowerCase())) out.push(tag);
  }
  return out;
}

const CATEGORY_HINTS: ReadonlyArray<[ConsolidatedCategory, RegExp]> = [
  ['skill', /步驟|做法|流程|指令|命令|怎麼|如何|腳本|安裝|設定|部署|設定檔|how to|steps|script|command|install|configure|deploy/gu],
  ['interest', /興趣|迷上|最近在(?:玩|看|聽|讀)|愛看|愛玩|喜歡看|喜歡聽|hobby|interested in|fan of/gu],
  ['news', /新版|發布|釋出|公告|新聞|消息|更新了|release|announce|news|changelog/gu],
  ['daily', /今天|昨天|剛剛|修好|完成|處理|bug|build|fix|test|\bpr\b|commit|merge/gu],
];

/**
 * The category the consolidation will probably choose (MEM-2): the hint group with
 * the most hits, ties to the earlier group; nothing recognisable → `other`. Preferences,
 * feedback and relationship talk are decided by the caller (→ important) before this runs.
 */
export function guessCategory(texts: readonly string[]): ConsolidatedCategory {
  const text = matchForm(texts.join('\n').slice(0, MAX_SCAN));
  let best: ConsolidatedCategory = 'other';
  let bestHits = 0;
  for (const [category, pattern] of CATEGORY_HINTS) {
    const hits = text.match(pattern)?.length ?? 0;
    if (hits > bestHits) {
      best = category;
      bestHits = hits;
    }
  }
  return best;
}
