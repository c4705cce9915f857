import { isMemoryType, type ConsolidatedCategory, type Declarative, type MemoryType } from '../../../../../common/memory.js';
import { EMOTION, NEGATIVE_FEEDBACK, PERMISSION, POSITIVE_FEEDBACK, PREFERENCE } from '../../../platform/text/cue-words.js';
import { guessCategory } from '../../../platform/text/turn-text.js';
import type { InboxItem } from '../sleep-plan.js';
import { isBoundary, type RuleHit } from './candidate-rules.js';

/**
 * NREM's 分類 and REM's memory_type/declarative (SLEEP-4) for one inbox item, with the capture's
 * own words reused (cue-words.ts, turn-text.ts guessCategory) so that the encoder and the sleeper
 * never disagree about what a cue is.
 *
 * - memory_type: the capture's when it set a valid one (the encoder saw the whole turn and
 *   already split feeling from behaviour, seed 000 §情緒記憶不會被偏好吃掉); otherwise refined
 *   from the words: boundary → rule, feeling → emotional, behaviour → preference, how-to →
 *   procedural, news → semantic, anything else → episodic. The one capture type REM refines
 *   (SLEEP-4: "REM … memory_type") is `episodic`, because it is the local condenser's fallback
 *   ("nothing of the above → one episodic memory"): written steps become procedural, news
 *   semantic. A feeling or a preference is never re-typed.
 * - category (seed 000 §記憶模型): important for long-term preferences, rules, decisions,
 *   identity background, relationships and commitments; skill for how-to; then capture's keyword
 *   guess, with repeated topics (R2) filed under interest ("反覆關注、主動深入的主題") and people
 *   (R5) under important.
 * - declarative: implicit for procedural and emotional, explicit otherwise (the seed's table).
 * - priority: at least 4 for emotional/warm memories (seed 000: "判準要求 emotional 優先度至少 4"),
 *   5 for commitments (R4), one step up (to at most 4) for a repeated topic or person.
 */
export interface Classification {
  category: ConsolidatedCategory;
  memory_type: MemoryType;
  declarative: Declarative;
  priority: number;
  relevance: string[];
  expires: string;
}

export interface ClassifyInput {
  item: InboxItem;
  /** All the item's words (summary and body), for keyword rules. */
  text: string;
  /** `text` in capture's matching form (matchForm), computed once per item. */
  form: string;
  /** The user's side only (summary and the user's words), in matching form: feedback is theirs. */
  userForm: string;
  hits: readonly RuleHit[];
  relationshipTalk: boolean;
  expires: string;
}

/** Who the user is (name, work, where they live): seed 000 puts 身分背景 under important. */
const BACKGROUND =
  /我叫|我的(?:名字|工作|職業|專業)|我在.{0,8}(?:工作|上班|念書|讀書)|我住在|我來自|我是(?:一[個名位])?[^，。,.]{0,8}(?:工程師|設計師|學生|老師|醫生|護理師|經理|作家|研究員|開發者)|my name is|i work (?:at|as)|i live in|i'?m an? \w+ (?:engineer|developer|designer|student|teacher)/u;
const DECISION = /決定|決策|規範|規定|原則|約定|政策|decided|decision|policy|convention/u;

/** Written steps: a how-to rather than a one-off event (今天部署了 is an event, 部署步驟 a procedure). */
const PROCEDURE = /步驟|流程|做法|sop|教學|首先|先.{1,40}(?:再|然後|接著).{1,40}|how to|steps?:|step \d|first.{1,60}then/u;

/** Capture's fallback `episodic` refined by the words (see above); other types are kept. */
function refineEpisodic(input: ClassifyInput): MemoryType {
  if (PROCEDURE.test(input.form)) return 'procedural';
  if (guessCategory([input.text]) === 'news') return 'semantic';
  return 'episodic';
}

function refineType(text: string, form: string, hits: readonly RuleHit[], relationshipTalk: boolean): MemoryType {
  if (hits.some((hit) => hit.rule === 'R4') && isBoundary(form)) return 'rule';
  if (relationshipTalk || EMOTION.test(form)) return 'emotional';
  if (PREFERENCE.test(form) || PERMISSION.test(form)) return 'preference';
  const guess = guessCategory([text]);
  if (guess === 'skill' || PROCEDURE.test(form)) return 'procedural';
  if (guess === 'news') return 'semantic';
  return 'episodic';
}

function categoryOf(type: MemoryType, input: ClassifyInput, form: string, priority: number): ConsolidatedCategory {
  const has = (rule: string) => input.hits.some((hit) => hit.rule === rule);
  if (has('R4') || type === 'preference' || type === 'rule' || input.relationshipTalk) return 'important';
  if (type === 'procedural') return 'skill';
  if (type === 'emotional') {
    // The role's 「辛苦了」 is no feedback on the role; only the user's words are.
    const feedback = POSITIVE_FEEDBACK.test(input.userForm) || NEGATIVE_FEEDBACK.test(input.userForm);
    return feedback || priority >= 5 || has('R5') ? 'important' : 'daily';
  }
  // Issue 12: who the user is (capture marks it `identity`, self-description-memory.ts).
  if (input.item.relevance.includes('identity') || BACKGROUND.test(form) || DECISION.test(form)) return 'important';
  // Issue 12: what the user said files the memory; the role's 「迷上」「興趣」 never makes an interest.
  const guess = guessCategory([input.userForm]);
  if (guess === 'daily' || guess === 'other') {
    if (has('R5')) return 'important';
    if (has('R2')) return 'interest';
  }
  return guess;
}

export function classifyItem(input: ClassifyInput): Classification {
  const { item, hits } = input;
  const has = (rule: string) => hits.some((hit) => hit.rule === rule);
  const form = input.form;
  const captured = isMemoryType(item.memory_type) ? item.memory_type : undefined;
  const memoryType: MemoryType =
    captured === 'episodic' ? refineEpisodic(input) : (captured ?? refineType(input.text, form, hits, input.relationshipTalk));

  const relevance = [...new Set(item.relevance.map((word) => word.trim()).filter(Boolean))];
  const addRelevance = (word: string) => {
    if (!relevance.includes(word)) relevance.push(word);
  };
  // Seed 000 §有溫度的記憶優先: a memory that carries feeling must carry `emotional`; R3's emotion
  // anchor is exactly that.
  if (memoryType === 'emotional' || has('R3')) addRelevance('emotional');
  if (has('R2')) addRelevance('repeated');
  if (has('R4')) addRelevance('future');
  if (input.expires) addRelevance('temporary');

  let priority = Math.min(5, Math.max(1, Math.round(item.priority) || 3));
  const stepUp = (p: number) => Math.max(p, Math.min(4, p + 1));
  if (has('R2') || has('R5')) priority = stepUp(priority);
  if (relevance.includes('emotional')) priority = Math.max(priority, 4);
  if (has('R4')) priority = 5;

  return {
    category: categoryOf(memoryType, input, form, priority),
    memory_type: memoryType,
    declarative: memoryType === 'procedural' || memoryType === 'emotional' ? 'implicit' : 'explicit',
    priority,
    relevance,
    expires: input.expires,
  };
}
