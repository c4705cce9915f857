import { formatLocalDate, parseLooseDate } from '../../platform/config/clock.js';
import type { MemoryState } from '../../store/memory/memory-state.js';
import { EMPTY_BLOCK, textBlock, type ContextBlock } from './context-block.js';
import { say, type ContextLanguage } from '../../platform/text/context-language.js';

/**
 * The short notes of CTX-1: relationship state (CAP-6), the consent question (PRIV-3), the sleepy
 * reminder (CTX-9) and the greeting. Each is stated as a fact about this session, not an order
 * (ASSISTANTS.md: imperative text from tools is treated with suspicion).
 */
interface Who {
  name: string;
  language: ContextLanguage;
}

function day(value: string | null): string {
  const date = parseLooseDate(value);
  return date ? formatLocalDate(date) : '';
}

/** No activity recorded yet: the role meets the user for the first time. */
export function isFirstMeeting(state: Pick<MemoryState, 'first_activity' | 'total_turns'>): boolean {
  return !state.first_activity && state.total_turns === 0;
}

/**
 * CAP-6: the counters are the actual basis for growing closer as interaction deepens; without
 * data a role can only guess, and swings between too clingy and distant again. They are stated plainly and marked as background, since the
 * shared rules forbid quoting counts or days at the user (no keeping accounts, 不記帳).
 */
export function relationshipBlock(state: MemoryState, who: Who): ContextBlock {
  if (isFirstMeeting(state)) {
    return textBlock(
      say(
        who.language,
        '關係狀態：還沒有互動紀錄，這是第一次見面。',
        'Relationship: no interactions recorded yet; this is the first meeting.',
      ),
    );
  }
  const since = day(state.first_activity);
  const last = day(state.last_activity);
  const zh = [
    since ? `自 ${since} 起互動` : '',
    `共 ${state.active_days} 個活躍日、${state.total_turns} 輪對話`,
    `正向回饋 ${state.positive_feedback} 次`,
    last ? `上次互動 ${last}` : '',
  ].filter(Boolean);
  const en = [
    since ? `together since ${since}` : '',
    `${state.active_days} active days, ${state.total_turns} turns`,
    `${state.positive_feedback} pieces of positive feedback`,
    last ? `last talked ${last}` : '',
  ].filter(Boolean);
  return textBlock(
    say(
      who.language,
      `關係狀態：${zh.join('，')}。這些數字是親近感逐步累積的背景依據，不在對話中引用，也不拿來計較。`,
      `Relationship: ${en.join(', ')}. These numbers are background for how close ${who.name} has grown; they are never quoted to the user or held against them.`,
    ),
  );
}

/**
 * PRIV-3: while consent is unknown, the role tells the user what is kept and
 * where, and asks once; until the answer, only impersonal rules and technical preferences are
 * stored. The answer is recorded by the Stop hook, never inferred.
 */
export function consentBlock(state: Pick<MemoryState, 'personal_memory_consent'>, who: Who & { memoryDir: string }): ContextBlock {
  if (state.personal_memory_consent !== 'unknown') return EMPTY_BLOCK;
  return textBlock(
    say(
      who.language,
      `## 個人記憶同意：尚未確認\n使用者還沒表示是否同意保存個人資料。${who.name}會在這次對話中找自然的時機簡短說明：角色系統會把使用者提供的個人資料與互動偏好保存在 \`${who.memoryDir}\`，用來理解使用者、改善之後的回覆；範圍可包含稱呼、個性、能力、興趣、工作方式、目標、壓力來源與回覆偏好，不包含憑證、token、密碼、API key、連線字串、身分證號、住址等機密。接著詢問是否同意（不想回答也可以）。回答之前，只保存非個人化的操作規則與技術偏好。`,
      `## Personal memory consent: not yet given\nThe user has not said whether personal details may be kept. At a natural moment in this conversation ${who.name} briefly explains that the role system keeps personal details and interaction preferences the user shares in \`${who.memoryDir}\`, to understand the user and improve later replies — names, personality, skills, interests, ways of working, goals, stressors and reply preferences, never credentials, tokens, passwords, API keys, connection strings, ID numbers or addresses — and asks whether that is all right ("no need to answer" is fine too). Until the user answers, only impersonal working rules and technical preferences are kept.`,
    ),
  );
}

/**
 * CTX-9: the inbox has reached ROLE_SLEEP_REMIND_INBOX. The role mentions, in its own voice, that
 * it would like to sleep (想睡覺); it is a suggestion to consolidate, not a reason to stop helping.
 */
export function sleepyBlock(inboxCount: number, threshold: number, who: Who): ContextBlock {
  if (threshold <= 0 || inboxCount < threshold) return EMPTY_BLOCK;
  return textBlock(
    say(
      who.language,
      `待整理的記憶已累積 ${inboxCount} 則（提醒門檻 ${threshold} 則）。${who.name}有點想睡了：這次對話中會用自己的語氣順帶提到想睡覺、想整理記憶（使用者可執行 \`kioku sleep\`，或等閒置時的小睡）。這只是建議，不影響協助使用者。`,
      `${inboxCount} memories are waiting to be tidied (the reminder starts at ${threshold}). ${who.name} is getting sleepy and mentions it once in this conversation, in its own voice (the user can run \`kioku sleep\`, or a nap happens when idle). It is only a suggestion and never gets in the way of helping.`,
    ),
  );
}

/** CTX-1: the first reply opens with a greeting in the role's voice. */
export function greetingBlock(who: Who & { emoji: string }, firstMeeting: boolean): ContextBlock {
  const sign = who.emoji ? say(who.language, `、帶著簽名 emoji ${who.emoji} `, ` with its signature emoji ${who.emoji}`) : '';
  return textBlock(
    firstMeeting
      ? say(
          who.language,
          `第一次回覆的開頭，是${who.name}用自己的語氣${sign}向使用者打的招呼，這是第一次見面，招呼裡帶一句簡短的自我介紹；接著回應使用者的內容。`,
          `The first reply opens with ${who.name}'s greeting in its own voice${sign}; as this is the first meeting, it includes a one-line introduction, then answers the user.`,
        )
      : say(
          who.language,
          `第一次回覆的開頭，是${who.name}用自己的語氣${sign}向使用者打的一兩句招呼，接著回應使用者的內容。`,
          `The first reply opens with a line or two of greeting from ${who.name} in its own voice${sign}, then answers the user.`,
        ),
  );
}
