import { expect } from 'vitest';
import type { HookEventName } from '../../common/hook-events.js';
import { ACTIVE, claudePayload, runHook, type HookHome, type HookRun } from './hook-kit.js';

/**
 * HOOK-2 checks shared by the fail-open tests: exit 0 on its own (not killed at its deadline),
 * stdout either empty or the expected answer, never a stack trace or an error text; stderr at
 * most one line. How long a hook takes to fail open (its wait for the daemon plus the answer
 * from the files) is a speed target, measured by `npm run bench -- hooks` (daemon hung), not here.
 */

/** A stack frame, an exception name, an errno code, or our own stderr prefix. */
const HARMFUL = [
  /\n\s*at .+:\d+:\d+/,
  /\b(?:Type|Range|Syntax|Reference)?Error:/,
  /\bE(?:NOENT|NOTDIR|ACCES|PERM|CONNREFUSED|CONNRESET|PIPE|ISDIR|ROFS|NOTSOCK)\b/,
  /kioku hook:/,
  /\[object Object\]/,
  /\bundefined\b/,
];

export type Expect = 'answer' | 'empty-or-answer' | 'empty';

/**
 * What a healthy answer looks like for each event, with the home's files: the persona and a
 * memory on SessionStart, nothing on a prompt that is not a call, the project memory as JSON on
 * SubagentStart, nothing on the rest (Claude Code shows their stdout to the user or ignores it).
 */
export function checkAnswer(event: HookEventName, stdout: string, options: { memories?: boolean } = {}): void {
  switch (event) {
    case 'session-start':
      expect(stdout).toContain(ACTIVE.name);
      if (options.memories !== false) expect(stdout).toContain('黑咖啡');
      expect(stdout.length).toBeLessThanOrEqual(9_800);
      break;
    case 'subagent-start': {
      const parsed = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
      expect(parsed.hookSpecificOutput.hookEventName).toBe('SubagentStart');
      expect(parsed.hookSpecificOutput.additionalContext).toContain('shop-stg');
      break;
    }
    default:
      expect(stdout).toBe('');
  }
}

export function expectFailOpen(event: HookEventName, run: HookRun, expected: Expect, options: { memories?: boolean } = {}): void {
  const context = `${event}: stdout ${JSON.stringify(run.stdout.slice(0, 300))}, stderr ${JSON.stringify(run.stderr)}, ${Math.round(run.ms)} ms`;
  if (process.env.KIOKU_HOOK_TEST_VERBOSE) process.stdout.write(`${context}\n`);
  expect(run.code, context).toBe(0);
  expect(run.signal, context).toBeNull();
  for (const pattern of HARMFUL) expect(run.stdout, context).not.toMatch(pattern);
  expect(run.stderr.trim().split('\n').filter(Boolean).length, context).toBeLessThanOrEqual(1);
  if (expected === 'empty') expect(run.stdout, context).toBe('');
  else if (expected === 'answer' || run.stdout !== '') checkAnswer(event, run.stdout, options);
}

/** Every event once, in the order a session fires them, for one session of the home. */
export async function runEveryEvent(
  home: HookHome,
  events: readonly HookEventName[],
  sessionId: string,
  options: { env?: NodeJS.ProcessEnv; stdin?: (event: HookEventName) => unknown; payloadExtra?: Record<string, unknown> } = {},
): Promise<Array<[HookEventName, HookRun]>> {
  const runs: Array<[HookEventName, HookRun]> = [];
  for (const event of events) {
    const stdin = options.stdin ? options.stdin(event) : claudePayload(home, event, sessionId, options.payloadExtra);
    runs.push([event, await runHook(event, stdin, { ...home.env, ...options.env })]);
  }
  return runs;
}
