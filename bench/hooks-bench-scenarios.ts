import type { HookEventName } from '../common/hook-events.js';
import { claimRole } from '../main/core/store/sessions/role-locks.js';
import { ROLE, ROLE_NAME, type HooksBenchHome } from './hooks-bench-home.js';

/** The hooks the hooks bench times (hooks-bench.ts), each as an assistant sends it. */
export interface Scenario {
  name: string;
  event?: HookEventName;
  /** Untimed, before each run: put the files where a real session would have them. */
  setup?: () => void | Promise<void>;
  /**
   * Untimed, once per round before the scenario's runs of every client (--compare): a change to
   * the memory files they share, so that each client's run meets the same one and writes its
   * prepared load after it.
   */
  edit?: () => Promise<void>;
  payload?: () => Record<string, unknown>;
  /** A run's stdout must satisfy this (checked on every run; a failure is reported, not hidden). */
  expectOutput?: (stdout: string) => boolean;
  /** Answered from the files (daemon hung or down): where the long-term memory must come from (issue 17). */
  expectSource?: 'prepared' | 'files';
}

/**
 * A reply as long as a real one (about 7 KB of UTF-8) with keys in it: the Stop the spool must keep
 * redacted (issue 13), so that what redaction costs the hook shows. Keys built at run time, so
 * this file trips no secret scanner.
 */
const LONG_REPLY = [
  ...Array.from(
    { length: 24 },
    (_, i) =>
      `第 ${i + 1} 步：我看了 auth middleware，token 過期時沒有刷新，所以回 401；已改成 refresh 失敗就清掉 session 並導回登入頁，也補了測試。`,
  ),
  `設定好了：ANTHROPIC_API_KEY=sk-ant-api03-${'Qw3rTy8uIo'.repeat(9)}AA，GITHUB_TOKEN=ghp_${'Zx7Cv2Bn9M'.repeat(3)}a1b2c3，資料庫密碼：Tr0ub4dor-and-3。`,
  ...Array.from(
    { length: 24 },
    (_, i) =>
      `Step ${i + 1}: the limiter counted per IP, and behind the proxy every request had the same one; it now reads X-Forwarded-For.`,
  ),
].join('\n');

export function hooksBenchScenarios(home: HooksBenchHome): Scenario[] {
  const { config, payload, transcript, forgetSessions, editByHand, fullCheckDue, callSetup } = home;
  const loaded = (out: string) => out.includes(ROLE_NAME) && out.includes('長期記憶');
  return [
    {
      name: 'session-start',
      event: 'session-start',
      setup: forgetSessions,
      payload: () => payload('session-start', 'bench-start', { source: 'startup' }),
      expectOutput: loaded,
      expectSource: 'prepared',
    },
    {
      name: 'session-start (full check due)',
      event: 'session-start',
      setup: () => {
        forgetSessions();
        fullCheckDue();
      },
      payload: () => payload('session-start', 'bench-start', { source: 'startup' }),
      expectOutput: loaded,
      expectSource: 'prepared',
    },
    {
      name: 'session-start (prepared load stale)',
      event: 'session-start',
      setup: forgetSessions,
      edit: editByHand,
      payload: () => payload('session-start', 'bench-start', { source: 'startup' }),
      expectOutput: loaded,
      expectSource: 'files',
    },
    {
      name: 'user-prompt-submit (not a call)',
      event: 'user-prompt-submit',
      payload: () => payload('user-prompt-submit', 'bench-start', { prompt: '幫我把部署流程的測試補齊' }),
      expectOutput: (out) => out === '',
    },
    {
      name: 'user-prompt-submit (a call)',
      event: 'user-prompt-submit',
      setup: callSetup,
      payload: () => payload('user-prompt-submit', 'bench-call', { prompt: `${ROLE_NAME}，幫我看一下這段` }),
      expectOutput: loaded,
      expectSource: 'prepared',
    },
    {
      name: 'user-prompt-submit (a call, prepared load stale)',
      event: 'user-prompt-submit',
      setup: callSetup,
      edit: editByHand,
      payload: () => payload('user-prompt-submit', 'bench-call', { prompt: `${ROLE_NAME}，幫我看一下這段` }),
      expectOutput: loaded,
      expectSource: 'files',
    },
    {
      name: 'stop',
      event: 'stop',
      payload: () => payload('stop', 'bench-start', { stop_hook_active: false, last_assistant_message: '好的，已經補齊。' }),
      expectOutput: (out) => out === '',
    },
    {
      name: 'stop (7 KB reply, with keys)',
      event: 'stop',
      payload: () => payload('stop', 'bench-start', { stop_hook_active: false, last_assistant_message: LONG_REPLY }),
      expectOutput: (out) => out === '',
    },
    {
      name: 'pre-compact',
      event: 'pre-compact',
      payload: () => payload('pre-compact', 'bench-start', { trigger: 'auto', custom_instructions: '' }),
      expectOutput: (out) => out === '',
    },
    {
      name: 'post-compact',
      event: 'post-compact',
      payload: () => payload('post-compact', 'bench-start', { trigger: 'auto', compact_summary: '使用者修好了部署流程的測試。' }),
      expectOutput: (out) => out === '',
    },
    {
      name: 'session-end',
      event: 'session-end',
      setup: () => {
        forgetSessions();
        claimRole(config, ROLE, { assistant: 'claude', sessionId: 'bench-end', transcriptPath: transcript('bench-end') });
      },
      payload: () => payload('session-end', 'bench-end', { reason: 'prompt_input_exit' }),
      expectOutput: (out) => out === '',
    },
    {
      name: 'subagent-start',
      event: 'subagent-start',
      payload: () => payload('subagent-start', 'bench-start', { agent_id: 'a1', agent_type: 'Explore' }),
      expectOutput: (out) => out.includes('hookSpecificOutput'),
    },
  ];
}
