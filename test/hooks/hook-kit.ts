import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { HookEventName } from '../../common/hook-events.js';
import { planRoleChange, createRole } from '../../main/core/store/roles/role-editor.js';
import { writeMemory } from '../../main/core/store/memory/memory-writer.js';
import { bundled, runNode, waitReady, type ChildRun } from '../ipc/daemon-kit.js';
import { guardChild, SHORT_CHILD_DEADLINE_MS } from '../helpers/child-guard.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * Real processes for the hook tests: the hook client exactly as an assistant starts it
 * (`node <bundle> <event> --assistant claude`, stdin = the payload), the real daemon
 * (hook-daemon.ts), and a home that looks like a user's: two roles made with the core role
 * editor, memories written through the one memory write path (one in Chinese), a Claude Code
 * transcript, and a project folder with its own memory file.
 */
export const HOOK_CLIENT = 'hooks/kioku-hook.ts';
export const HOOK_DAEMON = 'test/hooks/hook-daemon.ts';

/** 14:00 in Taipei on a weekday: outside the default 22:00–06:00 sleep window. */
export const NOW_ISO = '2026-03-10T14:00:00+08:00';
export const NOW = new Date(NOW_ISO);

/**
 * A sleep window from `start` to `end` hours after NOW on this process's clock. Handlers that run
 * in-process read NOW in the suite's zone (Taipei, Los Angeles, …): 14:00 Taipei is 22:00 in Los
 * Angeles, inside the default window, so a test about something else keeps the window away.
 */
export function sleepWindowFromNow(start: number, end: number): { ROLE_SLEEP_START: string; ROLE_SLEEP_END: string } {
  const hour = (offset: number) => `${String((((NOW.getHours() + offset) % 24) + 24) % 24).padStart(2, '0')}:00`;
  return { ROLE_SLEEP_START: hour(start), ROLE_SLEEP_END: hour(end) };
}

export const ACTIVE = { id: 'SILICA01', name: '西莉卡', aliases: ['小珪'] };
export const CALLEE = { id: 'HELPER01', name: '結衣', aliases: ['Yui'] };

export const ALL_EVENTS: readonly HookEventName[] = [
  'session-start',
  'user-prompt-submit',
  'stop',
  'pre-compact',
  'post-compact',
  'session-end',
  'subagent-start',
];

export interface HookHome extends TempHome {
  project: string;
  transcriptsDir: string;
  /** Write (or rewrite) a session's transcript, its mtime one minute before NOW (a live session). */
  transcript(sessionId: string, turns?: Array<[user: string, assistant: string]>): string;
}

export const DEFAULT_TURNS: Array<[string, string]> = [
  ['幫我看一下為什麼 login 一直回 401？', '我看了 auth middleware：token 過期時沒有刷新，所以回 401。'],
  ['那要怎麼修比較好？', '在 refresh 失敗時清掉 session，再導回登入頁。我已經改好並補了測試。'],
  [
    'Thanks, can you also check the rate limiter?',
    'The limiter counts per IP; behind the proxy every request has the same IP. I switched it to X-Forwarded-For.',
  ],
];

/** Claude Code transcript lines (ASSISTANTS.md §Transcripts) for the given turns. */
export function claudeTranscriptLines(sessionId: string, cwd: string, turns: Array<[string, string]>): string[] {
  const lines: string[] = [];
  let n = 0;
  const base = { isSidechain: false, cwd, sessionId, version: '2.1.9', userType: 'external' };
  for (const [user, assistant] of turns) {
    n += 1;
    const at = new Date(NOW.getTime() - (turns.length - n + 2) * 60_000).toISOString();
    lines.push(JSON.stringify({ ...base, type: 'user', uuid: `u-${n}`, timestamp: at, message: { role: 'user', content: user } }));
    lines.push(
      JSON.stringify({
        ...base,
        type: 'assistant',
        uuid: `a-${n}`,
        timestamp: at,
        message: {
          id: `msg_${n}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: assistant }],
        },
      }),
    );
  }
  return lines;
}

export function setFresh(file: string): void {
  const mtime = new Date(NOW.getTime() - 60_000);
  fs.utimesSync(file, mtime, mtime);
}

export async function makeHookHome(extraEnv: NodeJS.ProcessEnv = {}): Promise<HookHome> {
  const home = makeTempHome({ KIOKU_NOW: NOW_ISO, TZ: 'Asia/Taipei', ROLE_CLI: 'local', ...extraEnv });
  const config = home.config();
  for (const [role, nature, vibe] of [
    [ACTIVE, '冷靜可靠的資深工程師，重證據、不打包票。', '簡潔直白、偶爾吐槽。'],
    [CALLEE, '溫柔體貼的 AI，擅長整理資訊。', '語氣溫暖、句子短。'],
  ] as const) {
    const plan = planRoleChange(config, {
      id: role.id,
      name: role.name,
      nature,
      vibe,
      emoji: '✨',
      aliases: [...role.aliases],
      relationship: '使用者的同事，叫使用者「老大」。',
    });
    if (plan.kind !== 'create') throw new Error(`expected to create ${role.id}`);
    createRole(config, plan); // the first becomes .active
  }
  const memories = [
    {
      category: 'daily',
      summary: '老大喜歡早上喝黑咖啡，不加糖',
      body: '老大說早上一定要一杯黑咖啡，不加糖也不加奶。',
      priority: 4,
      tags: ['咖啡', '習慣'],
    },
    {
      category: 'skill',
      summary: 'Deploys go through the staging cluster first',
      body: 'Every deploy goes to staging, then production after the smoke tests pass.',
      priority: 4,
      tags: ['deploy'],
    },
    {
      category: 'important',
      summary: '程式碼審查時先講結論再講細節',
      body: '老大希望 review 意見先給結論，細節放後面。',
      priority: 5,
      tags: ['review'],
      memory_type: 'preference',
    },
    {
      category: 'inbox',
      summary: '老大這週在修 login 的 401 問題',
      body: 'auth middleware 的 token 刷新有問題，正在修。',
      priority: 3,
      tags: ['login'],
    },
  ] as const;
  for (const memory of memories) {
    await writeMemory(config, ACTIVE.id, { ...memory, tags: [...memory.tags] });
  }
  await writeMemory(config, CALLEE.id, {
    category: 'daily',
    summary: '老大的貓叫做麻糬',
    body: '老大養了一隻橘貓，名字叫麻糬。',
    priority: 4,
    tags: ['貓'],
  });

  const project = path.join(home.root, 'projects', 'shop-api');
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(
    path.join(project, 'MEMORY.md'),
    '# shop-api\n\n- 每次 push 之前先跑 `npm test`。\n- The staging cluster is `shop-stg`.\n',
  );
  const transcriptsDir = path.join(home.root, '.claude', 'projects', '-shop-api');
  fs.mkdirSync(transcriptsDir, { recursive: true });
  const transcript = (sessionId: string, turns: Array<[string, string]> = DEFAULT_TURNS) => {
    const file = path.join(transcriptsDir, `${sessionId}.jsonl`);
    fs.writeFileSync(file, `${claudeTranscriptLines(sessionId, project, turns).join('\n')}\n`);
    setFresh(file);
    return file;
  };
  return { ...home, project, transcriptsDir, transcript };
}

/** The stdin Claude Code gives each hook (ASSISTANTS.md §Claude Code). */
export function claudePayload(
  home: Pick<HookHome, 'project' | 'transcriptsDir'>,
  event: HookEventName,
  sessionId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const common = {
    session_id: sessionId,
    transcript_path: path.join(home.transcriptsDir, `${sessionId}.jsonl`),
    cwd: home.project,
    permission_mode: 'default',
  };
  switch (event) {
    case 'session-start':
      return { ...common, hook_event_name: 'SessionStart', source: 'startup', ...extra };
    case 'user-prompt-submit':
      return { ...common, hook_event_name: 'UserPromptSubmit', prompt: '幫我把 rate limiter 的測試補齊', ...extra };
    case 'stop':
      return { ...common, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: '好的，測試已經補齊了。', ...extra };
    case 'pre-compact':
      return { ...common, hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: '', ...extra };
    case 'post-compact':
      return {
        ...common,
        hook_event_name: 'PostCompact',
        trigger: 'manual',
        compact_summary: 'The user fixed the login 401 and the rate limiter.',
        ...extra,
      };
    case 'session-end':
      return { ...common, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit', ...extra };
    case 'subagent-start':
      return { ...common, hook_event_name: 'SubagentStart', agent_id: 'agent-1', agent_type: 'Explore', ...extra };
  }
}

export interface HookRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The hook client bundled once per test process (esbuild into .tmp/, packages external). */
export function hookBundle(): string {
  return bundled(HOOK_CLIENT);
}

/**
 * One hook run as the assistant does it. `stdin` is JSON-encoded unless it is a string or a
 * Buffer. The run is killed after `killAfterMs` (a safety net, not a budget) so a hanging hook
 * fails the test, not the suite, and at the end of the test in any case (child-guard.ts).
 * `ms` is for messages and the bench only: no test asserts on it.
 */
export function runHook(
  event: string,
  stdin: unknown,
  env: NodeJS.ProcessEnv,
  options: { killAfterMs?: number; args?: string[]; ownPidInEnv?: boolean } = {},
): Promise<HookRun> {
  const input = typeof stdin === 'string' || Buffer.isBuffer(stdin) ? stdin : JSON.stringify(stdin);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const argv = [process.execPath, hookBundle(), event, ...(options.args ?? ['--assistant', 'claude'])];
    // ownPidInEnv: the hook's env carries KIOKU_TEST_HOOK_PID = its own pid (sh `exec` keeps the
    // pid), which the hook forwards to the daemon with its other KIOKU_ settings (hook-daemon.ts).
    const [command, ...args] = options.ownPidInEnv ? ['/bin/sh', '-c', 'KIOKU_TEST_HOOK_PID=$$ exec "$@"', 'sh', ...argv] : argv;
    const child = guardChild(
      spawn(command!, args, { env, stdio: ['pipe', 'pipe', 'pipe'] }),
      options.killAfterMs ?? SHORT_CHILD_DEADLINE_MS,
    );
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.on('error', () => undefined); // the hook may stop reading early (EPIPE)
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: performance.now() - started,
      });
    });
    child.stdin.end(input);
  });
}

export function startHookDaemon(home: TempHome, env: NodeJS.ProcessEnv = {}): ChildRun {
  return runNode(HOOK_DAEMON, [], { ...home.env, ...env });
}

export async function startReadyDaemon(home: TempHome, env: NodeJS.ProcessEnv = {}): Promise<ChildRun> {
  const daemon = startHookDaemon(home, env);
  await waitReady(home, daemon);
  return daemon;
}

/** Lock, session-role and snapshot state left by a load: removed so the next run starts from the same files. */
export function forgetSessions(home: HookHome): void {
  for (const dir of [path.join(home.roleHome, '.locks'), path.join(home.roleHome, '.sessions'), home.config().paths.snapshotsDir]) {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What must never reach the assistant's stdout: a stack trace or an error text. */
export const HARMFUL = /\bat .+:\d+:\d+\)?|Error\b|ENOENT|ENOTDIR|EACCES|ECONNREFUSED|Traceback|undefined|\[object Object\]/;
