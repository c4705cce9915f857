import fs from 'node:fs';
import path from 'node:path';
import type { HookEventName } from '../common/hook-events.js';
import { RACY_MS } from '../main/core/engine/context/prepared-load-stamps.js';
import { loadConfig, type KiokuConfig } from '../main/core/platform/config/config.js';
import { preparedLoadPath } from '../main/core/platform/config/prepared-paths.js';
import { readUtf16File, utf16Bytes } from '../main/core/platform/fs/utf16-text-file.js';
import { writeSessionRole } from '../main/core/store/sessions/session-role-file.js';
import { benchHomeEnv, benchUserTimeToday, benchUserZone } from './bench-home-env.js';
import { createBenchRole } from './bench-role.js';
import { generateMemories } from './generate-memories.js';

/**
 * The hooks bench's home (hooks-bench.ts): two roles, one with the bench's memories, a project
 * with its MEMORY.md, Claude Code transcripts, and what the scenarios do to the files between runs.
 */
export const ROLE = 'BENCH01';
export const ROLE_NAME = '小記';
/** The role a session has before it calls ROLE by name (a switch is what a call costs). */
export const OTHER = 'OTHERS01';
const PROJECT_MEMORY = '# bench project\n\n- 每次 push 之前先跑 `npm test`。\n';

export interface HooksBenchHome {
  env: NodeJS.ProcessEnv;
  config: KiokuConfig;
  /** A transcript of 20 turns for a session (made once). */
  transcript(session: string): string;
  /** An assistant's hook payload for a session, in the bench project. */
  payload(event: HookEventName, session: string, extra?: Record<string, unknown>): Record<string, unknown>;
  /** Before a new session: its locks and session files gone, their folders kept, as for every session after a user's first. */
  forgetSessions(): void;
  /** A memory edited by hand and saved by rename: the prepared load on disk no longer holds. */
  editByHand(): Promise<void>;
  /** The prepared load's last full check long past: the next load stats every file. */
  fullCheckDue(): void;
  /** A session of OTHER, about to call ROLE by name. */
  callSetup(): void;
}

function parsedOrUndefined(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function prepareHooksBenchHome(homeDir: string, memoryCount: number): HooksBenchHome {
  // 14:00 today in the user's zone, so that SessionStart loads the persona whatever the hour
  // the bench runs at (CTX-7).
  const day = benchUserTimeToday('14:00');
  const env: NodeJS.ProcessEnv = benchHomeEnv(homeDir, {
    ...benchUserZone(),
    ROLE_CLI: 'local',
    KIOKU_NOW: day,
    // The daemon's sleep scheduler stays off: a nap or catch-up mid-bench would skew the timings.
    KIOKU_NO_SCHEDULE: '1',
  });
  const config = loadConfig(env);
  fs.mkdirSync(config.paths.roleHome, { recursive: true });
  for (const [id, name] of [
    [ROLE, ROLE_NAME],
    [OTHER, '旁觀者'],
  ] as const)
    createBenchRole(config, { id, name, emoji: '✨', nature: `${name}是冷靜可靠的工程夥伴。` });
  process.stderr.write(`hooks bench: generating ${memoryCount} memories…\n`);
  generateMemories(config.paths.memoryHome, ROLE, memoryCount);
  const project = path.join(homeDir, 'project');
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(project, 'MEMORY.md'), PROJECT_MEMORY);
  const transcripts = path.join(homeDir, '.claude', 'projects', 'bench');
  fs.mkdirSync(transcripts, { recursive: true });
  const transcript = (session: string) => {
    const file = path.join(transcripts, `${session}.jsonl`);
    if (!fs.existsSync(file)) {
      const lines: string[] = [];
      for (let i = 0; i < 20; i++) {
        lines.push(
          JSON.stringify({
            type: 'user',
            sessionId: session,
            cwd: project,
            message: { role: 'user', content: `第 ${i} 個問題：部署流程的測試為什麼會失敗？` },
          }),
        );
        lines.push(
          JSON.stringify({
            type: 'assistant',
            sessionId: session,
            cwd: project,
            message: {
              id: `m${i}`,
              role: 'assistant',
              content: [{ type: 'text', text: `第 ${i} 個回答：因為快取沒有清掉，我已經修好並補上測試。` }],
            },
          }),
        );
      }
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
    }
    return file;
  };
  const payload = (event: HookEventName, session: string, extra: Record<string, unknown> = {}) => ({
    session_id: session,
    transcript_path: transcript(session),
    cwd: project,
    hook_event_name: event,
    ...extra,
  });
  // A new session as a user's every session after the first: the locks and sessions folders
  // are there, empty of this session's files (making them is the first session's cost alone,
  // and was 0.6 ms of every SessionStart here while the folders themselves were removed).
  const forgetSessions = () => {
    for (const dir of [path.join(config.paths.roleHome, '.locks'), config.paths.sessionsDir])
      for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  };

  // A memory edited by hand and saved by rename (vim's default; every write of Kioku's, a sleep's
  // or a recall's): the prepared load on disk no longer holds, and a load without the daemon
  // reads every file again (issue 17's stale rows). An edit saved in place is seen by the next
  // full check instead (full-check-policy.ts), which the "full check due" rows measure.
  const edited = path.join(
    config.paths.memoryHome,
    ROLE,
    'important',
    fs.readdirSync(path.join(config.paths.memoryHome, ROLE, 'important')).sort()[0]!,
  );
  // Saved a moment before the session starts, not within the file system's time resolution of
  // it: a load computed that close leaves the folder racy (checked file by file by every load
  // until one settles it, prepared-load-stamps.ts), which a person's edit never does.
  const editByHand = async () => {
    const text = fs.readFileSync(edited, 'utf8');
    const temp = `${edited}.bench-edit`;
    fs.writeFileSync(temp, text.endsWith('\n\n') ? text.slice(0, -1) : `${text}\n`);
    fs.renameSync(temp, edited);
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
  };
  // The prepared load's last full check long past: this load stats every file (once in ten minutes).
  const fullCheckDue = () => {
    const file = preparedLoadPath(config.paths, ROLE);
    if (!fs.existsSync(file)) return;
    // UTF-16LE since format 4 (utf16-text-file.ts); an older client's, with --compare, is UTF-8.
    const utf16 = parsedOrUndefined(readUtf16File(file, Infinity));
    const stored = (utf16 ?? JSON.parse(fs.readFileSync(file, 'utf8'))) as { checkedAt?: number };
    stored.checkedAt = 0;
    const text = JSON.stringify(stored);
    fs.writeFileSync(file, utf16 ? utf16Bytes(text) : text);
  };
  const callSetup = () => {
    forgetSessions();
    writeSessionRole(config, 'bench-call', OTHER);
  };
  return { env, config, transcript, payload, forgetSessions, editByHand, fullCheckDue, callSetup };
}
