import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { categoryDir } from '../../main/core/store/memory/memory-layout.js';
import { createRole, planRoleChange } from '../../main/core/store/roles/role-editor.js';
import type { TempHome } from '../helpers/temp-home.js';

/**
 * A simulated Claude Code session for the capture tests that run the real daemon: a role, a
 * transcript that grows turn by turn, and the Stop payload.
 * Design notes: docs/design-notes.md, "test/ipc/capture-session-kit.ts".
 */
export const ROLE = { id: 'KEEPER01', name: '紀錄員' };

/** 14:00 in Taipei: outside the default 22:00–06:00 sleep window. */
export const NOW_ISO = '2026-03-10T14:00:00+08:00';

export function captureHomeEnv(): NodeJS.ProcessEnv {
  // ROLE_CLI=local: no LLM here (and none wanted: the test is about delivery, not condensing).
  // KIOKU_NO_SCHEDULE=1: no nap or sleep may move inbox items while the test counts them.
  return { KIOKU_NOW: NOW_ISO, TZ: 'Asia/Taipei', ROLE_CLI: 'local', KIOKU_NO_SCHEDULE: '1' };
}

/** The one role of the home, made with the core role editor; it becomes `.active`. */
export function createCaptureRole(home: TempHome): void {
  const config = home.config();
  const plan = planRoleChange(config, {
    id: ROLE.id,
    name: ROLE.name,
    nature: '細心的紀錄員，重視每一個決定。',
    vibe: '簡潔、條理分明。',
    emoji: '📝',
    relationship: '使用者的同事。',
  });
  if (plan.kind !== 'create') throw new Error(`expected to create ${ROLE.id}`);
  createRole(config, plan);
}

export function userMarker(writer: number, seq: number): string {
  return `U-${writer}-${String(seq).padStart(3, '0')}`;
}

export function replyMarker(writer: number, seq: number): string {
  return `R-${writer}-${String(seq).padStart(3, '0')}`;
}

export interface TurnText {
  user: string;
  reply: string;
}

export function keptTurn(writer: number, seq: number): TurnText {
  return {
    user: `記住：服務 ${userMarker(writer, seq)} 的部署改用藍綠切換，舊版保留一天再下線。`,
    reply: `好，服務 ${replyMarker(writer, seq)} 已改成藍綠切換，舊版會保留一天。`,
  };
}

export class SessionTranscript {
  readonly sessionId = randomUUID();
  readonly file: string;
  private n = 0;

  constructor(
    dir: string,
    readonly cwd: string,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, `${this.sessionId}.jsonl`);
  }

  /** Append one turn: the user's line, then the assistant's (a thinking block and the text, as Claude Code writes them). */
  append(turn: TurnText): void {
    this.n += 1;
    const at = new Date(Date.parse(NOW_ISO) + this.n * 1_000).toISOString();
    const base = { isSidechain: false, cwd: this.cwd, sessionId: this.sessionId, version: '2.1.9', userType: 'external', timestamp: at };
    const lines = [
      { ...base, type: 'user', uuid: `u-${this.n}`, message: { role: 'user', content: turn.user } },
      {
        ...base,
        type: 'assistant',
        uuid: `t-${this.n}`,
        message: {
          id: `msg_${this.n}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'thinking', thinking: '使用者要記下部署方式。', signature: 'sig' }],
        },
      },
      {
        ...base,
        type: 'assistant',
        uuid: `a-${this.n}`,
        message: {
          id: `msg_${this.n}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: turn.reply }],
        },
      },
    ];
    fs.appendFileSync(this.file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  }

  /** Claude Code's Stop hook input for the turn just appended. */
  stopPayload(reply: string): Record<string, unknown> {
    return {
      session_id: this.sessionId,
      transcript_path: this.file,
      cwd: this.cwd,
      permission_mode: 'default',
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: reply,
    };
  }

  preCompactPayload(): Record<string, unknown> {
    return {
      session_id: this.sessionId,
      transcript_path: this.file,
      cwd: this.cwd,
      permission_mode: 'default',
      hook_event_name: 'PreCompact',
      trigger: 'auto',
      custom_instructions: '',
    };
  }
}

/** Every inbox file of the role, name → text. */
export function inboxTexts(home: TempHome, roleId = ROLE.id): Map<string, string> {
  const dir = categoryDir(home.memoryHome, roleId, 'inbox');
  const out = new Map<string, string>();
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (name.endsWith('.md')) out.set(name, fs.readFileSync(path.join(dir, name), 'utf8'));
  }
  return out;
}

/** The inbox files whose text holds `marker` as a whole token. */
export function filesWith(texts: Map<string, string>, marker: string): string[] {
  const pattern = new RegExp(`(?<![\\w-])${marker}(?![\\w-])`);
  return [...texts].filter(([, text]) => pattern.test(text)).map(([name]) => name);
}
