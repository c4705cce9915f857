import {
  BARE_AGREEMENT,
  BARE_REFUSAL,
  CONSENT_ACCEPTED,
  CONSENT_DECLINED,
  CONSENT_TOPIC,
  FORGET_THIS_TURN,
  NEGATIVE_FEEDBACK,
  POLITE_REQUEST,
  POSITIVE_FEEDBACK,
  matchForm,
} from '../../platform/text/cue-words.js';
import { splitSentences } from '../../platform/text/turn-text.js';

/**
 * What a turn says about the relationship and the user's wishes, apart from its content:
 * consent changes (PRIV-3), positive feedback (CAP-6) and "don't remember this".
 */

/**
 * PRIV-3, seed 000 §機密與 PII: "本輪對話明確包含個人記憶保存同意或拒絕時…更新同意狀態。偵測不到明確同意時
 * 不得自行推論". So only words about saving personal data count: 「同意保存」, 「不要記我的個人資料」,
 * "you may remember my name". A bare 「同意」 / "I agree" counts only when it is the whole message
 * and the reply names personal data or remembering — that is the answer to the consent question
 * the role asked (CTX-1), not a guess. Anything else (「好」, "ok", 「可以」) is never read as consent.
 */
export function detectConsentChange(userText: string, assistantText = ''): 'accepted' | 'declined' | undefined {
  const user = matchForm(userText);
  if (CONSENT_DECLINED.test(user)) return 'declined';
  if (CONSENT_ACCEPTED.test(user)) return 'accepted';
  const bare = user.trim();
  if (bare.length > 24 || !CONSENT_TOPIC.test(matchForm(assistantText))) return undefined;
  if (BARE_REFUSAL.test(bare)) return 'declined';
  if (BARE_AGREEMENT.test(bare)) return 'accepted';
  return undefined;
}

/**
 * CAP-6: positive feedback is counted apart from turns (seed 000 §關係狀態: "正向回饋另計，不與輪數混算").
 * Mixed feedback ("謝謝，但我不喜歡這樣") is not counted: the counter is the basis for growing
 * closer, and reading a complaint as praise would push the role the wrong way. Thanks inside a
 * request ("幫我看一下，謝謝") is politeness, not feedback on the role.
 */
export function isPositiveFeedback(userText: string): boolean {
  const sentences = splitSentences(userText).map(matchForm);
  if (sentences.some((s) => NEGATIVE_FEEDBACK.test(s))) return false;
  return sentences.some((s) => POSITIVE_FEEDBACK.test(s) && !POLITE_REQUEST.test(s));
}

/** "不要記住這個" / "off the record": the user's wish beats capture for this turn. */
export function asksNotToRememberTurn(userText: string): boolean {
  return FORGET_THIS_TURN.test(matchForm(userText));
}
