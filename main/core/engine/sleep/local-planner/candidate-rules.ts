import { matchForm } from '../../../platform/text/cue-words.js';

/**
 * PM-3: seed 001's candidate rules (§短期 → 長期的轉入條件), applied to one batch. They decide how
 * an item is kept — priority, category, relevance, links — and are reported per item for the UI
 * (explainCandidates), the way seed 001's `--rules R2+R3` records "which rule brought it up".
 *
 * | rule | seed 001                                 | here: when                          | here: effect                         |
 * | R1   | 單筆顯著度 ≥ 60                            | salience (salience.ts) ≥ 60          | kept; reported (event/fact)          |
 * | R2   | 同一 topic ≥ 3 筆，或 ≥ 2 筆且平均顯著度 ≥ 45 | a tag of batch items + existing      | `repeated`, priority one step up,    |
 * |      | → preference                               | memories, counted per memory         | daily/other filed under interest     |
 * | R3   | 單筆情緒變動總量 ≥ 25 → event + emotion 錨點 | feeling words (salience.ts) ≥ 25     | `emotional` (warm), 情緒錨點 line, cues |
 * | R4   | intent=commit 或承諾／界線關鍵詞             | the words below, not in a temporary  | priority 5, important, never evicted |
 * |      | → promise/boundary                         | permission                           | (a rule when the type was unknown)   |
 * | R5   | 同一 entity（人）≥ 2 筆 → relationship       | the same person word twice           | person tag/cue, links, priority step,|
 * |      |                                            |                                      | daily/other filed under important    |
 * | R6   | 短期記憶 ≥ 40 筆（容量壓力）                  | batch + items left ≥ 40              | salience < 40 discarded, see below   |
 *
 * R2's "→ preference" and R1/R3's "event" are seed 001's types; Kioku's memory_type comes from
 * capture, which already split behaviour from feeling (seed 000 §情緒記憶不會被偏好吃掉), and a
 * repeated feeling must stay a feeling. So the suggested kind is only reported (SuggestedKind, for
 * the UI) and the rules act through priority, relevance, category, tags, cues and links.
 *
 * R5 follows seed 001's own caveat: a person counts only when written exactly the same way
 * ("「小林」與「林先生」不會被當成同一個人"); no dictionary guesses who is who.
 */
export type CandidateRule = 'R1' | 'R2' | 'R3' | 'R4' | 'R5' | 'R6';

export interface RuleHit {
  rule: CandidateRule;
  /** Why, in Traditional Chinese, for the UI and the memory's 依據 line. */
  reason: string;
}

export const R1_SALIENCE = 60;
export const R2_COUNT = 3;
export const R2_PAIR_MEAN = 45;
export const R3_CHANGE = 25;
/** Seed 001 R6: "短期記憶 ≥ 40 筆…低於 40 的直接淘汰". */
export const R6_PRESSURE = 40;
export const R6_KEEP_SALIENCE = 40;

/** Seed 001 R4's commitment/boundary words; 要不要 and 不要緊 are neither. */
const COMMITMENT =
  /承諾|答應|保證|約定|說好|發誓|一定會|(?<!要)不要(?!緊)|絕對不|永遠不|界線|底線|不准|不可以|禁止|\bpromise|\bswear\b|\bboundary|\bnever ever\b|\bmust (?:not|never)\b|\bdon'?t ever\b/u;
const BOUNDARY = /(?<!要)不要(?!緊)|絕對不|永遠不|界線|底線|不准|不可以|禁止|boundary|must (?:not|never)|don'?t ever/u;

/** `form` is the text in capture's matching form (matchForm), computed once per item. */
export function commitmentWord(form: string): string | undefined {
  return COMMITMENT.exec(form)?.[0];
}

export function isBoundary(form: string): boolean {
  return BOUNDARY.test(form);
}

/** People other than the user and the role, by the word used for them (R5). */
const PERSON =
  /媽媽|爸爸|母親|父親|女兒|兒子|妹妹|姊姊|姐姐|哥哥|弟弟|老婆|老公|太太|丈夫|妻子|男朋友|女朋友|伴侶|戀人|同事|主管|老闆|上司|客戶|老師|同學|室友|鄰居|朋友|阿公|阿嬤|爺爺|奶奶|外公|外婆|\bmom\b|\bdad\b|\bmother\b|\bfather\b|\bdaughter\b|\bson\b|\bwife\b|\bhusband\b|\bboss\b|\bcolleague\b|\bcoworker\b|\bfriend\b|\bteacher\b|\broommate\b|@[\p{L}\p{N}_-]{2,30}/gu;

/** People named in a text already in matching form. */
export function personsInForm(form: string): string[] {
  const found: string[] = [];
  for (const match of form.matchAll(PERSON)) if (!found.includes(match[0])) found.push(match[0]);
  return found;
}

export function personsIn(texts: readonly string[]): string[] {
  return personsInForm(matchForm(texts.join('\n')));
}

/** How many memories (batch items + existing) carry a topic or a person, and their mean salience. */
export interface Tally {
  count: number;
  salienceSum: number;
}

export function addToTally(tallies: Map<string, Tally>, key: string, salience: number): void {
  const tally = tallies.get(key) ?? { count: 0, salienceSum: 0 };
  tally.count += 1;
  tally.salienceSum += salience;
  tallies.set(key, tally);
}

export interface RuleInput {
  salience: number;
  emotionChange: number;
  emotionWords: readonly string[];
  topics: readonly string[];
  persons: readonly string[];
  /** The commitment/boundary word found, unless the item is a temporary permission. */
  commitment: string | undefined;
}

/** R1–R5 for one item, given the batch-wide tallies. R6 is decided afterwards (it needs R1–R5). */
export function candidateRules(input: RuleInput, topics: ReadonlyMap<string, Tally>, persons: ReadonlyMap<string, Tally>): RuleHit[] {
  const hits: RuleHit[] = [];
  if (input.salience >= R1_SALIENCE) hits.push({ rule: 'R1', reason: `顯著度 ${input.salience} ≥ ${R1_SALIENCE}` });
  for (const topic of input.topics) {
    const tally = topics.get(topic);
    if (!tally) continue;
    const mean = Math.round(tally.salienceSum / tally.count);
    if (tally.count >= R2_COUNT || (tally.count >= 2 && mean >= R2_PAIR_MEAN)) {
      hits.push({ rule: 'R2', reason: `主題「${topic}」共 ${tally.count} 則（平均顯著度 ${mean}）` });
      break;
    }
  }
  if (input.emotionChange >= R3_CHANGE) {
    hits.push({ rule: 'R3', reason: `情緒變動 ${input.emotionChange} ≥ ${R3_CHANGE}（${input.emotionWords.join('、')}）` });
  }
  if (input.commitment) hits.push({ rule: 'R4', reason: `承諾／界線詞「${input.commitment}」` });
  for (const person of input.persons) {
    const tally = persons.get(person);
    if (tally && tally.count >= 2) {
      hits.push({ rule: 'R5', reason: `人物「${person}」出現 ${tally.count} 次` });
      break;
    }
  }
  return hits;
}

/**
 * R6: under capacity pressure the lowest-salience items go — but, as seed 001 insists, never an
 * item from today ("沒經過判斷就把今天清掉是這裡最不能犯的錯"), never a commitment, and (MEM-6)
 * never a warm or emotional one. An item another rule brought up is not evicted either.
 */
export function evictionReason(
  input: { salience: number; today: boolean; warm: boolean; hits: readonly RuleHit[] },
  pressure: number,
): string | undefined {
  if (pressure < R6_PRESSURE || input.today || input.warm || input.hits.length) return undefined;
  if (input.salience >= R6_KEEP_SALIENCE) return undefined;
  return `capacity (R6): 待整理 ${pressure} 則，顯著度 ${input.salience} < ${R6_KEEP_SALIENCE}`;
}

/** Seed 001's suggested kind for the UI: promise/boundary, relationship, preference, event or fact. */
export type SuggestedKind = 'promise' | 'boundary' | 'relationship' | 'preference' | 'event' | 'fact';

export function suggestedKind(hits: readonly RuleHit[], form: string, memoryType: string): SuggestedKind | undefined {
  const has = (rule: CandidateRule) => hits.some((hit) => hit.rule === rule);
  if (has('R4')) return isBoundary(form) ? 'boundary' : 'promise';
  if (has('R5')) return 'relationship';
  if (has('R2')) return 'preference';
  if (has('R3')) return 'event';
  if (has('R1')) return memoryType === 'semantic' ? 'fact' : 'event';
  return undefined;
}
