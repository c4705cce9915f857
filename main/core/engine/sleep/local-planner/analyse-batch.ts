import { ADDRESSES_ROLE, KIN, RELATIONSHIP, matchForm } from '../../../platform/text/cue-words.js';
import { splitSentences } from '../../../platform/text/turn-text.js';
import { formatLocalDate, parseLooseDate } from '../../../platform/config/clock.js';
import type { CollectedBatch, InboxItem } from '../sleep-plan.js';
import {
  addToTally,
  candidateRules,
  commitmentWord,
  evictionReason,
  personsInForm,
  suggestedKind,
  type RuleHit,
  type SuggestedKind,
  type Tally,
} from './candidate-rules.js';
import { classifyItem, type Classification } from './classify.js';
import { ExistingIndex, type ExistingAnalysis } from './existing-index.js';
import { itemParts, type ItemParts } from './item-parts.js';
import { noiseOf, type NoiseReason } from './noise.js';
import { emotionOf, salienceOf, type EmotionReading } from './salience.js';
import { featuresOf, similarity, type Features } from './text-features.js';
import { userTopicsOf } from './user-topics.js';

/**
 * Everything the planner needs to know about each inbox item, computed once per item before any
 * pairwise comparison (the batch × existing similarity then only reads precomputed features).
 */
export interface ItemAnalysis {
  item: InboxItem;
  index: number;
  parts: ItemParts;
  /** Summary and body, for keyword rules. */
  text: string;
  features: Features;
  noise?: NoiseReason;
  salience: number;
  emotion: EmotionReading;
  topics: string[];
  persons: string[];
  /** Relationship talk between the user and the role (CAP-4). */
  relationshipTalk: boolean;
  /** MEM-8 expiry: the inbox file's, else the 有效範圍 capture wrote into the body; '' when none. */
  expires: string;
  /** Local date the item was captured (its `created`; today when unreadable). */
  date: string;
  today: boolean;
  hits: RuleHit[];
  evict?: string;
  kind?: SuggestedKind;
  classification: Classification;
}

export interface BatchAnalysis {
  items: ItemAnalysis[];
  existing: ExistingAnalysis[];
  /** Inbox items waiting in all (this batch and those left for later): R6's capacity pressure. */
  pressure: number;
  today: string;
  /** Similarity of a batch item to an existing memory, computed at most once per pair. */
  score(item: ItemAnalysis, ref: ExistingAnalysis): number;
}

function isRelationshipTalk(item: InboxItem, parts: ItemParts): boolean {
  if (item.tags.some((tag) => /^(?:關係|relationship)$/iu.test(tag.trim()))) return true;
  const said = parts.userWords.length ? parts.userWords : [item.summary];
  return said.some((words) =>
    splitSentences(words)
      .map(matchForm)
      .some((s) => RELATIONSHIP.test(s) || (KIN.test(s) && ADDRESSES_ROLE.test(s))),
  );
}

interface FirstPass {
  item: InboxItem;
  parts: ItemParts;
  text: string;
  form: string;
  noise?: NoiseReason;
  salience: number;
  topics: string[];
  persons: string[];
}

export function analyseBatch(batch: CollectedBatch, now: Date, index: ExistingIndex = new ExistingIndex()): BatchAnalysis {
  const today = formatLocalDate(now);
  const existing = index.analyse(batch.existing);
  const first: FirstPass[] = batch.items.map((item) => {
    const parts = itemParts(item);
    const text = `${item.summary}\n${item.body}`;
    const form = matchForm(`${text}\n${item.tags.join('\n')}`);
    return {
      item,
      parts,
      text,
      form,
      noise: noiseOf(item, parts),
      salience: salienceOf(item.priority, item.relevance),
      topics: userTopicsOf(item, parts),
      persons: personsInForm(form),
    };
  });

  // R2 and R5 count memories, not mentions: each batch item and each existing memory once.
  const topics = new Map<string, Tally>();
  const persons = new Map<string, Tally>();
  for (const pass of first) {
    if (pass.noise) continue;
    for (const topic of pass.topics) addToTally(topics, topic, pass.salience);
    for (const person of pass.persons) addToTally(persons, person, pass.salience);
  }
  for (const ref of existing) {
    for (const topic of ref.topics) addToTally(topics, topic, ref.salience);
    for (const person of ref.persons) addToTally(persons, person, ref.salience);
  }

  const pressure = batch.items.length + Math.max(0, batch.left);
  const items = first.map((pass, i): ItemAnalysis => {
    const { item, parts, text, form } = pass;
    const expires = (item.expires ?? '').trim() || parts.scope || '';
    const created = parseLooseDate(item.created);
    const date = created ? formatLocalDate(created) : today;
    // Issue 12: R3 reads the user's feelings; the role's 「好高興認識你」 never promotes a memory.
    const feelingWords = [...parts.userWords, ...parts.otherLines];
    const emotion = emotionOf(feelingWords.length ? feelingWords : [item.summary]);
    const relationshipTalk = isRelationshipTalk(item, parts);
    // A temporary permission ("這次先不要跑測試") is no commitment: R4 would make it permanent.
    const temporary = Boolean(expires) || item.relevance.includes('temporary');
    const commitment = temporary ? undefined : commitmentWord(form);
    const hits = pass.noise
      ? []
      : candidateRules(
          {
            salience: pass.salience,
            emotionChange: emotion.change,
            emotionWords: emotion.words,
            topics: pass.topics,
            persons: pass.persons,
            commitment,
          },
          topics,
          persons,
        );
    const userForm = matchForm([item.summary, ...parts.userWords].join('\n'));
    const classification = classifyItem({ item, text, form, userForm, hits, relationshipTalk, expires });
    const warm = classification.relevance.includes('emotional') || classification.memory_type === 'emotional';
    const evict = pass.noise ? undefined : evictionReason({ salience: pass.salience, today: date === today, warm, hits }, pressure);
    const kind = suggestedKind(hits, form, classification.memory_type);
    return {
      item,
      index: i,
      parts,
      text,
      features: featuresOf(index.space, [item.summary, ...parts.userWords, ...parts.otherLines, ...item.cues], item.tags),
      ...(pass.noise ? { noise: pass.noise } : {}),
      salience: pass.salience,
      emotion,
      topics: pass.topics,
      persons: pass.persons,
      relationshipTalk,
      expires,
      date,
      today: date === today,
      hits,
      ...(evict ? { evict } : {}),
      ...(kind ? { kind } : {}),
      classification,
    };
  });
  const memo = new Float64Array(items.length * existing.length).fill(-1);
  const score = (item: ItemAnalysis, ref: ExistingAnalysis): number => {
    const at = item.index * existing.length + ref.index;
    if (memo[at]! < 0) memo[at] = similarity(item.features, ref.features);
    return memo[at]!;
  };
  return { items, existing, pressure, today, score };
}
