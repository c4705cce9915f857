import { formatLocalDate, parseStrictDate } from '../../platform/config/clock.js';
import { isSessionGrant } from '../../store/memory/grant-scope.js';
import type { CondensedMemory } from './capture-types.js';
import { matchForm, PERMISSION } from '../../platform/text/cue-words.js';
import { findDateMentions, type DateMention } from './relative-dates.js';

/**
 * Binds what a turn's memory says about time (dates, temporary grants) to the turn itself, after
 * any condenser.
 * Design notes: docs/design-notes.md, "main/core/engine/capture/turn-dates.ts".
 */
export interface TurnFacts {
  /** The user's words of the turn (after the script guard and the consent strip). */
  userText: string;
  /** The turn's time (handle-capture.ts turnTime). */
  now: Date;
  sessionId?: string | null;
}

const CHINESE = /[\u3400-\u9fff]/;
const EXPIRING_TYPES = new Set(['episodic', 'semantic']);

/**
 * A grant: the condenser gave it an expiry or called it temporary, or it is a permission (可以直接
 * push, 不用問) that names a day — 「明天之前都可以直接 push」 has no 這次/暫時, and its day is its end.
 */
function isGrant(memory: CondensedMemory, userText: string, namesADay: boolean): boolean {
  if (memory.expires?.trim() || memory.relevance.includes('temporary')) return true;
  return namesADay && (memory.memory_type === 'preference' || memory.memory_type === 'rule') && PERMISSION.test(matchForm(userText));
}

/** The words with each mention's date right after them, once: 「下週一（2026-04-13）」. */
function annotate(text: string, mentions: readonly DateMention[], zh: boolean): string {
  let out = text;
  for (const mention of mentions) {
    const at = out.indexOf(mention.text);
    if (at < 0) continue;
    const end = at + mention.text.length;
    const note = zh ? `（${mention.date}）` : ` (${mention.date})`;
    if (out.startsWith(note, end) || mention.text === mention.date) continue;
    out = out.slice(0, end) + note + out.slice(end);
  }
  return out;
}

function datesLine(mentions: readonly DateMention[], today: string, zh: boolean): string {
  const pairs = mentions.map((m) => (zh ? `「${m.text}」＝${m.date}` : `'${m.text}' = ${m.date}`));
  return zh ? `日期：${pairs.join('、')}（${today} 說的）` : `Dates: ${pairs.join(', ')} (said on ${today})`;
}

/** Words right after a date (past its written-out day) that make it a start: 下週一開始, 3/13 起. */
const STARTS_AFTER = /^\s*(?:（\d{4}-\d{2}-\d{2}）)?\s*(?:開始|开始|起(?!來|来|床)|之後|以後|之后|以后)/;
/** Words right before a date that make it a start: from next Monday, starting 4/13, 從下週一. */
const STARTS_BEFORE = /(?:\b(?:from|starting|beginning|starts|start|begins|begin|effective|after|since)\s+(?:on\s+)?|從|从|自)\s*$/i;

/** Whether the day a mention names is when something begins (so it is no end for a reminder). */
function isStart(text: string, mention: DateMention): boolean {
  const after = text.slice(mention.index + mention.text.length, mention.index + mention.text.length + 20);
  const before = text.slice(Math.max(0, mention.index - 20), mention.index);
  return STARTS_AFTER.test(after) || STARTS_BEFORE.test(before);
}

/** Words that grant once: the session is then the bound even when a day is named too (the narrower wins). */
const ONE_TIME = /這次|這一次|本次|this time|just this once|this once|only once/;

function boundGrant(
  expires: string | undefined,
  latestFuture: string | undefined,
  today: string,
  sessionId: string | null | undefined,
  oneTime: boolean,
): string {
  const text = (expires ?? '').trim();
  const session = isSessionGrant({ expires: text });
  const ofThisSession = () =>
    session && (/session\s/i.test(text) || /\d{4}-\d{2}-\d{2}/.test(text))
      ? text
      : sessionId
        ? `本工作階段（session ${sessionId}，${today} 授權）`
        : `本工作階段（${today} 授權）`;
  // A one-time grant (這次) stays with its session, which is narrower than any day named with it.
  if (oneTime) return ofThisSession();
  // A day the user named bounds a 暫時/先/for-now grant better than "this session" or "today" (今天 is a mention too).
  if (latestFuture && (!text || parseStrictDate(text) || session)) return latestFuture;
  if (!text) return '';
  if (parseStrictDate(text)) return text;
  if (session) return ofThisSession();
  return /\d{4}-\d{2}-\d{2}/.test(text) ? text : `${text}（${today} 授權）`;
}

export function bindToTurn(memory: CondensedMemory, turn: TurnFacts): CondensedMemory {
  const today = formatLocalDate(turn.now);
  const mentions = findDateMentions(turn.userText, turn.now);
  const zh = CHINESE.test(turn.userText) || CHINESE.test(memory.summary);
  const latestFuture = mentions
    .map((m) => m.date)
    .filter((date) => date >= today)
    .sort()
    .at(-1);
  const bound: CondensedMemory = { ...memory, relevance: [...memory.relevance], keyPoints: [...memory.keyPoints] };
  if (mentions.length) {
    bound.summary = annotate(memory.summary, mentions, zh);
    bound.keyPoints = [...bound.keyPoints.map((point) => annotate(point, mentions, zh)), datesLine(mentions, today, zh)];
  }
  if (isGrant(memory, turn.userText, latestFuture !== undefined)) {
    const expires = boundGrant(memory.expires, latestFuture, today, turn.sessionId, ONE_TIME.test(matchForm(turn.userText)));
    if (expires) bound.expires = expires;
  } else if (EXPIRING_TYPES.has(memory.memory_type) && !memory.relevance.includes('emotional')) {
    // A reminder or deadline ends with the latest day it names — unless that day starts something.
    const latestEnd = mentions
      .filter((m) => m.date >= today && !isStart(turn.userText, m))
      .map((m) => m.date)
      .sort()
      .at(-1);
    if (latestEnd && !mentions.some((m) => m.date >= latestEnd && isStart(turn.userText, m))) bound.expires = latestEnd;
  }
  if (bound.expires && !bound.relevance.includes('temporary')) bound.relevance.push('temporary');
  // The condenser's own scope line (local-condenser.ts 有效範圍：/Valid for:) tells the bound one:
  // the inbox block shows bodies as they are.
  if (bound.expires && bound.expires !== memory.expires) {
    bound.keyPoints = bound.keyPoints.map((point) => point.replace(/^(有效範圍：|Valid for: ).*$/, `$1${bound.expires}`));
  }
  return bound;
}
