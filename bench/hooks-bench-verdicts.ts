import type { HookEventName } from '../common/hook-events.js';
import { FLOOR_SOCKET, FLOOR_STDIN } from './hook-floors.js';
import { roundRatioNote, type HookResult, type Stats } from './hooks-bench-report.js';
import type { Scenario } from './hooks-bench-scenarios.js';

/** The hooks bench's targets (hooks-bench.ts; issue 17 and HOOK-2), each a PASS or FAIL line. */
export interface Verdict {
  name: string;
  label: string;
  pass: boolean;
  line: string;
  ratio?: number;
  floorRatio?: number;
  max?: number;
  medianMs?: number;
  maxMs?: number;
}

/** How much longer than its wait for the daemon a hook may take to fail open: start Node, answer from the files. */
const FAIL_OPEN_SLACK_MS = 1_000;
/** Issue 17: a SessionStart or call by name answered from a valid prepared load, daemon down. */
const FILE_MODE_PREPARED_MAX = 2;
/** Claude Code gives SessionEnd about this long in total. */
const SESSION_END_MS = 1_500;

/** `floor`: the least a Node hook doing the same must do (hook-floors.ts), printed beside the verdict. */
const TARGETS: Array<{ name: string; max: number; label: string; floor: string }> = [
  { name: 'session-start', max: 1.3, label: 'SessionStart with the daemon up', floor: FLOOR_SOCKET },
  { name: 'user-prompt-submit (not a call)', max: 1.15, label: 'UserPromptSubmit that is not a call, daemon up', floor: FLOOR_STDIN },
  { name: 'stop', max: 1.3, label: 'Stop with the daemon up', floor: FLOOR_SOCKET },
];

const bad = (stats: Stats) => (stats.badRuns ? `; ${stats.badRuns} bad run(s)` : '');
const verdictWord = (pass: boolean) => (pass ? 'PASS' : 'FAIL');

export function hooksBenchVerdicts(
  results: readonly HookResult[],
  floors: readonly HookResult[],
  scenarios: readonly Scenario[],
  daemonWaitMs: Record<HookEventName, number>,
): Verdict[] {
  const resultOf = (name: string) => results.find((r) => r.name === name)!;
  const verdicts: Verdict[] = TARGETS.map((target) => {
    const result = resultOf(target.name);
    const pass = result.up.ratio <= target.max && result.up.badRuns === 0;
    const floor = floors.find((row) => row.name === target.floor)?.up;
    const floorNote = floor ? `; its ${target.floor} is ${floor.ratio.toFixed(2)}×` : '';
    return {
      ...target,
      ratio: result.up.ratio,
      ...(floor ? { floorRatio: floor.ratio } : {}),
      pass,
      line: `${verdictWord(pass)}  ${target.label}: ${result.up.medianMs} ms = ${result.up.ratio.toFixed(2)}× node -e 0 (≤ ${target.max}×)${roundRatioNote(result.up)}${floorNote}${bad(result.up)}`,
    };
  });
  // Issue 17: without the daemon, a load whose prepared load on disk holds costs ≤ 2× node -e 0.
  for (const name of ['session-start', 'user-prompt-submit (a call)']) {
    const stats = resultOf(name).down;
    const pass = stats.ratio <= FILE_MODE_PREPARED_MAX && stats.badRuns === 0;
    verdicts.push({
      name,
      label: `${name}, daemon down, prepared load valid`,
      ratio: stats.ratio,
      max: FILE_MODE_PREPARED_MAX,
      pass,
      line: `${verdictWord(pass)}  ${name}, daemon down, prepared load valid: ${stats.medianMs} ms = ${stats.ratio.toFixed(2)}× node -e 0 (≤ ${FILE_MODE_PREPARED_MAX}×)${roundRatioNote(stats)}${bad(stats)}`,
    });
  }
  // Fail open in time: each hook within its wait for the daemon plus the slack, daemon hung.
  for (const scenario of scenarios) {
    const stats = resultOf(scenario.name).hung;
    const maxMs = daemonWaitMs[scenario.event!] + FAIL_OPEN_SLACK_MS;
    const pass = stats.medianMs <= maxMs && stats.badRuns === 0;
    verdicts.push({
      name: scenario.name,
      label: `${scenario.name} fails open, daemon hung`,
      medianMs: stats.medianMs,
      maxMs,
      pass,
      line: `${verdictWord(pass)}  ${scenario.name} fails open, daemon hung: ${stats.medianMs} ms (≤ ${maxMs} ms: its wait + ${FAIL_OPEN_SLACK_MS})${bad(stats)}`,
    });
  }
  // SessionEnd releases the role inside Claude Code's budget for it, whatever the daemon's state.
  for (const phase of ['hung', 'down'] as const) {
    const stats = resultOf('session-end')[phase];
    const pass = stats.medianMs <= SESSION_END_MS && stats.badRuns === 0;
    verdicts.push({
      name: 'session-end',
      label: `session-end, daemon ${phase}`,
      medianMs: stats.medianMs,
      maxMs: SESSION_END_MS,
      pass,
      line: `${verdictWord(pass)}  session-end, daemon ${phase}: ${stats.medianMs} ms (≤ ${SESSION_END_MS} ms)${bad(stats)}`,
    });
  }
  return verdicts;
}
