import { formatLocalDate } from '../../platform/config/clock.js';
import type { BondCandidate, CondensedMemory, Condenser, TurnInput } from './capture-types.js';
import {
  ABOUT_THE_ROLE,
  ADDRESSES_ROLE,
  BEHAVIOUR_HINT,
  EMOTION,
  EVALUATION,
  KIN,
  NEGATIVE_FEEDBACK,
  PERMISSION,
  POLITE_REQUEST,
  POSITIVE_FEEDBACK,
  PREFERENCE,
  RECIPROCATED,
  RELATIONSHIP,
  ROLE_FEELING,
  TEMPORARY_MARKERS,
  FILTER_CUES,
  matchForm,
} from '../../platform/text/cue-words.js';
import { clip, extractTags, guessCategory, isChinese, quote, splitSentences } from '../../platform/text/turn-text.js';
import { isSmallTalkOpener, salientSentence } from './salient-sentence.js';
import { selfDescriptionMemory } from './self-description-memory.js';

/**
 * The built-in condenser (no LLM, deterministic): the fallback whenever a CLI fails, and the
 * only condenser on machines without one. It applies CAP-4 sentence by sentence to the user's
 * words (the reply only supplies the role's side):
 *
 * - relationship talk (我們的關係, 喜歡你, love you, or a kin word such as 家人/女兒 addressed to the
 *   role) → one `emotional` memory, priority 5, that keeps BOTH the user's words and the role's
 *   answer (CAP-4: recording only the expectation lets the role's stance
 *   drift unnoticed); its bond is mutual when the reply answers in kind.
 * - behaviour to change (偏好, 以後都…, prefer, never), a permission (可以直接 push, 跳過), or
 *   feedback that says what to repeat → `preference`. Feedback on the role's manner, negative
 *   feedback and explicit "remember" → priority 4 (CAP-4, CAP-7).
 * - how it felt (開心, 好累, 想你了, miss you) and plain praise/thanks → `emotional`, priority ≥ 4,
 *   relevance `emotional`, with a user→role bond. Plain praise goes here rather than to
 *   preference because the two mistakes do not cost the same (MEM-5:
 *   a feeling recorded as a preference is a feeling not remembered).
 * - a sentence with both → TWO memories, one of each type.
 * - a temporary permission word (今天, 這次, 先, 暫時, 這個 PR, today, this time, for now) in a
 *   preference sentence → `expires` (today's date for 今天/today, else a condition text) and
 *   relevance `temporary` (MEM-8).
 * - nothing of the above → one `episodic` memory of the turn, category guessed from keywords.
 *
 * Summaries quote or compress the user's own words (no invented facts), one sentence,
 * Traditional Chinese framing for Chinese input; the script guard converts quoted Simplified at
 * write time (PRIV-2). It never throws: odd input gets a plain memory of whatever text there is.
 */
interface Sentence {
  text: string;
  form: string;
}

const sentencesOf = (text: string): Sentence[] => splitSentences(text).map((s) => ({ text: s, form: matchForm(s) }));
const join = (items: readonly Sentence[], max: number) => clip(items.map((s) => s.text).join(' '), max);

function isRelationship(s: Sentence): boolean {
  return RELATIONSHIP.test(s.form) || (KIN.test(s.form) && ADDRESSES_ROLE.test(s.form));
}

/** Thanks attached to a request ("幫我修 bug，謝謝") is politeness, not feedback on the role. */
function isFeedback(s: Sentence): boolean {
  if (NEGATIVE_FEEDBACK.test(s.form)) return true;
  if (POLITE_REQUEST.test(s.form)) return false;
  return POSITIVE_FEEDBACK.test(s.form) || (ABOUT_THE_ROLE.test(s.form) && EVALUATION.test(s.form));
}

/** Preference words, not counting the 喜歡/愛 of a relationship phrase ("我喜歡你" is no preference). */
function isBehaviour(s: Sentence): boolean {
  const rest = s.form.replace(new RegExp(RELATIONSHIP.source, 'g'), ' ');
  return PREFERENCE.test(rest) || PERMISSION.test(rest) || NEGATIVE_FEEDBACK.test(rest) || (isFeedback(s) && BEHAVIOUR_HINT.test(rest));
}

function expiresOf(items: readonly Sentence[], now: Date): string | undefined {
  for (const marker of TEMPORARY_MARKERS) {
    if (items.some((s) => marker.pattern.test(s.form))) return marker.expires === 'today' ? formatLocalDate(now) : marker.expires;
  }
  return undefined;
}

interface Labels {
  said: string;
  expressed: string;
  answered: string;
  feedback: string;
  felt: string;
  mentioned: string;
  userWords: string;
  roleAnswer: string;
  noAnswer: string;
  scope: string;
  tags: Record<'preference' | 'emotional' | 'relationship' | 'feedback' | 'temporary', string>;
}
const ZH: Labels = {
  said: '使用者表示：',
  expressed: '使用者表達',
  answered: '；角色回應',
  feedback: '使用者對角色的互動方式給出回饋：',
  felt: '使用者表達的感受：',
  mentioned: '使用者提到：',
  userWords: '使用者原話：',
  roleAnswer: '角色當時的回應：',
  noAnswer: '（角色本輪沒有文字回應）',
  scope: '有效範圍：',
  tags: { preference: '偏好', emotional: '情緒', relationship: '關係', feedback: '互動回饋', temporary: '臨時授權' },
};
const EN: Labels = {
  said: 'User said: ',
  expressed: 'User said ',
  answered: '; the role answered ',
  feedback: "User feedback on the role's manner: ",
  felt: 'User expressed: ',
  mentioned: 'User mentioned: ',
  userWords: "User's words: ",
  roleAnswer: "Role's answer: ",
  noAnswer: '(the role gave no text reply this turn)',
  scope: 'Valid for: ',
  tags: { preference: 'preference', emotional: 'emotion', relationship: 'relationship', feedback: 'feedback', temporary: 'temporary' },
};

function condenseTurn(input: TurnInput): CondensedMemory[] {
  const user = sentencesOf(input.userText);
  const reply = sentencesOf(input.assistantText);
  const zh = isChinese(input.userText) || (!user.length && isChinese(input.assistantText));
  const L = zh ? ZH : EN;
  const explicit = FILTER_CUES.remember.test(matchForm(input.userText));
  const replyGist = reply.length ? join(reply.slice(0, 3), 200) : L.noAnswer;
  // Issue 12: topics are what the user talked about; the role's words never make a tag (a tag is
  // what PM-3's R2 counts, and a reply that keeps naming 便當 must not promote a lunch chat).
  const tagsFor = (fixed: string[]) => extractTags([input.userText], fixed);
  const withExplicit = (relevance: string[]) => (explicit ? ['explicit', ...relevance] : relevance);
  const memories: CondensedMemory[] = [];

  const relationship = user.filter(isRelationship);
  if (relationship.length) {
    // The role's stance is what drifts when it is lost: keep every reply sentence about the
    // relationship, and quote the one that states a position (a kin word) in the summary.
    const stance = reply.filter((s) => KIN.test(s.form) || RELATIONSHIP.test(s.form) || RECIPROCATED.test(s.form));
    const answer = stance.length ? stance : reply.slice(0, 2);
    const lead = stance.find((s) => KIN.test(s.form)) ?? answer[0];
    // Mutual only when the reply answers in kind in so many words; a kept boundary is not acceptance.
    const mutual = reply.some((s) => RECIPROCATED.test(s.form));
    const bond: BondCandidate = { text: join(relationship, 160), direction: mutual ? 'mutual' : 'user-to-role' };
    memories.push({
      category: 'important',
      summary: `${L.expressed}${quote(join(relationship, 200), zh, 40)}${lead ? `${L.answered}${quote(lead.text, zh, 40)}` : L.noAnswer}`,
      tags: tagsFor([L.tags.relationship, L.tags.emotional]),
      priority: 5,
      relevance: withExplicit(['emotional']),
      memory_type: 'emotional',
      keyPoints: [`${L.userWords}${join(relationship, 300)}`, `${L.roleAnswer}${answer.length ? join(answer, 400) : L.noAnswer}`],
      bond,
    });
  }

  const rest = user.filter((s) => !isRelationship(s));
  const behaviour = user.filter(isBehaviour);
  if (behaviour.length) {
    const feedback = behaviour.some(isFeedback);
    const expires = expiresOf(behaviour, input.now);
    memories.push({
      category: 'important',
      summary: `${feedback ? L.feedback : L.said}${quote(join(behaviour, 200), zh)}`,
      tags: tagsFor([L.tags.preference, ...(feedback ? [L.tags.feedback] : []), ...(expires ? [L.tags.temporary] : [])]),
      priority: feedback || explicit ? 4 : 3,
      relevance: withExplicit(['future', ...(expires ? ['temporary'] : [])]),
      memory_type: 'preference',
      keyPoints: [`${L.userWords}${join(behaviour, 400)}`, ...(expires ? [`${L.scope}${expires}`] : []), `${L.roleAnswer}${replyGist}`],
      ...(expires ? { expires } : {}),
    });
  }

  // Feeling sentences, and praise that is not (only) an instruction, outside relationship talk.
  const feelings = rest.filter((s) => EMOTION.test(s.form) || (isFeedback(s) && !NEGATIVE_FEEDBACK.test(s.form) && !isBehaviour(s)));
  if (feelings.length) {
    const roleFeeling = reply.find((s) => ROLE_FEELING.test(s.form));
    memories.push({
      category: feelings.some(isFeedback) ? 'important' : 'daily',
      summary: `${feelings.some(isFeedback) && !feelings.some((s) => EMOTION.test(s.form)) ? L.feedback : L.felt}${quote(join(feelings, 200), zh)}`,
      tags: tagsFor([L.tags.emotional, ...(feelings.some(isFeedback) ? [L.tags.feedback] : [])]),
      priority: 4,
      relevance: withExplicit(['emotional']),
      memory_type: 'emotional',
      keyPoints: [`${L.userWords}${join(feelings, 400)}`, `${L.roleAnswer}${roleFeeling ? clip(roleFeeling.text, 200) : replyGist}`],
      bond: { text: join(feelings, 160), direction: 'user-to-role' },
    });
  }

  // Issue 12: the user's name, form of address and background, with consent (PRIV-3).
  const self = input.consent === 'accepted' ? selfDescriptionMemory(user, zh, explicit, replyGist) : undefined;
  if (self) memories.push(self.memory);

  // The rest of a turn that introduced the user still gets its own memory when it says something.
  const untold = self ? user.filter((s) => !self.sentences.includes(s.text)) : user;
  const more = self !== undefined && memories.length === 1 && untold.some((s) => !isSmallTalkOpener(s.form) && s.text.length >= 12);
  if (!memories.length || more) {
    // PM-1: the gist is the turn's salient statement, not its first sentence (「早安！」).
    const lead = salientSentence(untold.length ? untold : user) ?? reply[0];
    const summary = lead
      ? `${user.length ? L.mentioned : L.roleAnswer}${quote(lead.text, zh)}`
      : clip(`${input.userText} ${input.assistantText}`, 80);
    memories.push({
      // Issue 12: the user's words choose the category; the reply only when the user said nothing.
      category: guessCategory([user.length ? input.userText : input.assistantText]),
      summary,
      tags: tagsFor([]),
      priority: explicit ? 4 : 3,
      relevance: withExplicit([]),
      memory_type: 'episodic',
      keyPoints: [...(user.length ? [`${L.userWords}${join(user, 400)}`] : []), `${L.roleAnswer}${replyGist}`],
    });
  }
  return memories;
}

/** The last resort when the rules themselves fail: keep the words, never lose the turn. */
function plainMemory(input: TurnInput): CondensedMemory {
  const text = `${String(input.userText ?? '')}\n${String(input.assistantText ?? '')}`.trim();
  return {
    category: 'other',
    summary: clip(text.replace(/\s+/g, ' '), 80) || '（空白的對話）',
    tags: [],
    priority: 3,
    relevance: [],
    memory_type: 'episodic',
    keyPoints: [clip(text, 800)],
  };
}

export class LocalCondenser implements Condenser {
  readonly name = 'local';

  condense(input: TurnInput): Promise<CondensedMemory[]> {
    try {
      return Promise.resolve(condenseTurn(input));
    } catch {
      return Promise.resolve([plainMemory(input)]);
    }
  }
}

export const localCondenser = new LocalCondenser();
