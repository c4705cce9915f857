import type { SeedRequest } from '../../store/memory/seed-memory.js';
import type { RoleInput } from '../../store/roles/role-editor.js';

/**
 * What `kioku demo` plays: one role, one background memory and a short session. The role is
 * the role skill's own example (ROLE-5's field table: 小豹 🐆 ENGINEER01), so what the demo shows matches the
 * documentation a new user reads next.
 */
export const DEMO_ROLE: RoleInput & Required<Pick<RoleInput, 'prefix' | 'name' | 'emoji' | 'nature' | 'vibe'>> = {
  prefix: 'ENGINEER',
  name: '小豹',
  emoji: '🐆',
  nature: '冷靜可靠的資深工程師，重證據、不打包票',
  vibe: '簡潔直白、偶爾吐槽，不用客套開場白',
  source: '原創角色（kioku demo 範例）',
  relationship: '使用者的工作夥伴，一起維護專案的資深工程師',
};

/** MEM-9: the background a user agrees to when a role is created; it skips the inbox and sleep. */
export const DEMO_SEED: SeedRequest = {
  category: 'important',
  summary: '小豹負責團隊的 CI 與建置流程，習慣先看 log 再下結論',
  tags: ['角色背景', '初始資料'],
  source: 'kioku demo 範例資料',
  body: ['- 小豹是團隊裡負責 CI 與建置流程的資深工程師。', '- 遇到錯誤先看 log、重現問題，再下結論；沒有證據不打包票。'].join('\n'),
};

export interface DemoTurn {
  user: string;
  assistant: string;
  /** What this turn is in the script to show, for the narration (zh-TW, then an English gloss). */
  shows: string;
}

/**
 * Three turns, each there for a reason: capture keeps a turn only when the user's words carry a
 * memory cue or the turn is long (CAP-1), so the first turn is dropped by the local filter, the
 * second keeps an explicit preference (「記住」 + 「習慣用」) and the third a feeling (好累, 開心)
 * — the two kinds MEM-5 insists are stored apart.
 */
export const DEMO_TURNS: readonly DemoTurn[] = [
  {
    user: '幫我看一下 CI 為什麼一直裝不起相依套件？',
    assistant:
      '看了 log：repo 裡是 pnpm-lock.yaml，CI 卻跑 npm ci，找不到 package-lock.json 就失敗了。改成 pnpm install --frozen-lockfile 就好。🐆',
    shows: '一般的短回合，沒有記憶線索 (a short turn with no memory cue)',
  },
  {
    user: '記住：我習慣用 pnpm，以後不要再給我 npm 的指令。',
    assistant: '收到，之後一律用 pnpm。CI 那行我也順手改成 pnpm install --frozen-lockfile 了。🐆',
    shows: '明確的記憶線索「記住」 (an explicit "remember" cue)',
  },
  {
    user: '終於綠了！被這個 CI 卡了一整個下午，好累，不過現在很開心。',
    assistant: '辛苦了。卡一下午不是你的問題，是 lockfile 跟指令對不上。先去喝杯水吧。🐆',
    shows: '帶著感受的一句話 (a turn that carries a feeling)',
  },
];

/** Fixed ids, so two runs of the demo print the same paths (the home itself is always fresh). */
export const DEMO_SESSIONS = {
  first: '5e55a0d1-0000-4000-8000-000000000001',
  next: '5e55a0d1-0000-4000-8000-000000000002',
} as const;

/** A model name for the payloads; Claude Code sends one on SessionStart. */
export const DEMO_MODEL = 'claude-sonnet-4-5';
