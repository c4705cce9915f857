import { languageOfText, say, type ContextLanguage } from '../../platform/text/context-language.js';
import { inertText } from './inert-text.js';
import type { ProjectMemory } from './shared-memory-blocks.js';

/**
 * The short loads that replace the persona: asleep (CTX-7), held by another session (LOCK-1),
 * a sub-agent (DSH-5), and the one-line reminder on resume (CTX-10).
 * Design notes: docs/design-notes.md, "main/core/engine/context/special-contexts.ts".
 */

/** KIOKU_HOOK_OUTPUT_LIMIT's default, for callers that do not pass their setting. */
const DEFAULT_LIMIT = 9800;

export interface SleepingOptions {
  language: ContextLanguage;
  roleName: string;
  /** ROLE_SLEEP_START / ROLE_SLEEP_END, as configured (HH:MM). */
  sleepStart: string;
  sleepEnd: string;
}

/**
 * CTX-7: a CLI started in the sleep window loads no role; the assistant answers as a plain
 * assistant, without the role's name, voice or signature emoji, while the conversation is still
 * captured as memory. The name is given so the assistant can say who is
 * asleep if asked — not so it can play them.
 */
export function sleepingContext(options: SleepingOptions): string {
  return say(
    options.language,
    `${options.roleName}正在睡覺（睡眠時段 ${options.sleepStart}–${options.sleepEnd}，這段時間整理記憶），這個工作階段沒有載入角色人格。助理以一般助理的身分回應：不自稱${options.roleName}，不使用角色的語氣或簽名 emoji。對話仍會被記錄，醒來後整理進記憶。`,
    `${options.roleName} is asleep (sleep window ${options.sleepStart}–${options.sleepEnd}, when memories are tidied), so no persona is loaded in this session. The assistant answers as a plain assistant: it does not call itself ${options.roleName} or use the role's voice or signature emoji. The conversation is still recorded and reaches memory after the role wakes.`,
  );
}

export interface LockHolder {
  language: ContextLanguage;
  roleId: string;
  roleName: string;
  /** The other session, when known. */
  holderSessionId?: string;
  /** When the holder took the role (ISO or as stored). */
  holderSince?: string;
  /** ROLE_INSTANCE_IDLE_MINUTES */
  idleMinutes: number;
}

/**
 * LOCK-1: one live session per role, so the user never talks to two copies
 * of the same persona. The reason and all three remedies are stated, and that another free role
 * can still be called by name here.
 */
export function lockedContext(holder: LockHolder): string {
  const l = holder.language;
  const details = [
    holder.holderSessionId ? say(l, `工作階段 ${holder.holderSessionId}`, `session ${holder.holderSessionId}`) : '',
    holder.holderSince ? say(l, `自 ${holder.holderSince} 起`, `since ${holder.holderSince}`) : '',
  ].filter(Boolean);
  const held = details.length ? say(l, `（${details.join('，')}）`, ` (${details.join(', ')})`) : '';
  return say(
    holder.language,
    `${holder.roleName}（${holder.roleId}）目前由另一個仍在進行的工作階段載入${held}。一個角色同一時間只在一個工作階段載入，避免同時出現兩個相同的人格，所以這個工作階段沒有載入人格，由一般助理回應，並可以向使用者說明這個原因。解除方式有三種：執行 \`kioku role unlock ${holder.roleId}\`；等對方的對話閒置超過 ${holder.idleMinutes} 分鐘後自動接手；或設定 \`ROLE_SINGLE_INSTANCE=0\` 關閉這個限制。這個工作階段仍可點名其他沒有被佔用的角色接手。`,
    `${holder.roleName} (${holder.roleId}) is loaded by another live session${held}. A role is loaded by one session at a time, so the user never talks to two copies of one persona; this session therefore has no persona and a plain assistant answers, free to tell the user why. Three ways out: run \`kioku role unlock ${holder.roleId}\`; wait until the other conversation has been idle for ${holder.idleMinutes} minutes, when it is taken over; or set \`ROLE_SINGLE_INSTANCE=0\` to turn the limit off. Another role that is free can still be called by name in this session.`,
  );
}

/**
 * DSH-5: a sub-agent has a delegated task; persona, global facts and the journal are unrelated
 * to it, and injecting them only widens the sub-agent's context and makes it drift. It gets the project memory
 * only, and is told the rest exists and can be read, read-only, rather than assuming it does not.
 */
export function subagentContext(project: ProjectMemory | undefined, options: { language?: ContextLanguage; limit?: number } = {}): string {
  // The sub-agent's own assembly: its one injected text is made inert too (inert-input.ts).
  const body = inertText(project?.text ?? '').trim();
  const lang = options.language ?? languageOfText(body, 'zh-TW');
  const contract = say(
    lang,
    '這是子代理（sub agent）工作階段：只注入專案記憶。角色人格、全域事實（FACT.md）與日誌都存在但沒有注入；需要時可以唯讀查詢：`kioku facts read`、`kioku journal search "<關鍵詞>"`。',
    'This is a sub-agent session: only the project memory is injected. The persona, the global facts (FACT.md) and the journal exist but are not injected; they can be read, read-only, with `kioku facts read` and `kioku journal search "<keywords>"`.',
  );
  if (!project || !body) return contract;
  const full = [
    say(lang, `## 專案記憶（${project.path}）`, `## Project memory (${project.path})`),
    body,
    contract,
    say(
      lang,
      '（專案記憶上限 8000 字元，以 `kioku project-memory update` 整篇更新；更長的內容寫進日誌。）',
      '(Project memory holds at most 8000 characters, rewritten whole with `kioku project-memory update`; longer notes go to the journal.)',
    ),
  ].join('\n\n');
  if (full.length <= (options.limit ?? DEFAULT_LIMIT)) return full;
  // A hand-edited file over the write limit is never cut (DSH-2: silent truncation loses the
  // user's text); it is pointed to instead.
  return `${contract}\n\n${say(
    lang,
    `專案記憶 ${project.path} 比一次注入的上限還長，這次沒有注入；用 \`kioku project-memory read\` 讀取。`,
    `Project memory (${project.path}) is longer than one injection allows and was not injected; \`kioku project-memory read\` shows it.`,
  )}`;
}

/**
 * CTX-10: on resume Claude Code replays what was injected before, so the whole load is not sent
 * again — only a line that the role and its memories are already in the conversation.
 */
export function resumeReminder(language: ContextLanguage, roleName: string): string {
  return say(
    language,
    `（Kioku：工作階段接續。${roleName}的角色與記憶已在這段對話稍早載入，沿用即可。）`,
    `(Kioku: session resumed. ${roleName}'s persona and memories were loaded earlier in this conversation and still apply.)`,
  );
}
