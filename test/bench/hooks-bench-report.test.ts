import { describe, expect, it } from 'vitest';
import { summarize, type HookResult, type Sample, type Stats } from '../../bench/hooks-bench-report.js';
import { hooksBenchVerdicts } from '../../bench/hooks-bench-verdicts.js';
import { FLOOR_SOCKET } from '../../bench/hook-floors.js';
import { DAEMON_WAIT_MS } from '../../hooks/hook-budgets.js';

const run = (ms: number): Sample => ({ ms, code: 0, stdout: '', stderr: '' });

describe('the hooks bench numbers', () => {
  it('divides the median by node -e 0, and each round by its own node -e 0', () => {
    const stats = summarize([30, 40, 50].map(run), 25, 0, [25, 25, 50].map(run));
    expect(stats).toMatchObject({ runs: 3, medianMs: 40, ratio: 1.6, badRuns: 0 });
    // Per round 1.2, 1.6, 1.0: a round whose node -e 0 was slow too counts as the machine's, not the hook's.
    expect(stats.roundRatio).toEqual({ p25: 1, median: 1.2, p75: 1.6 });
    // Rounds that do not pair up one to one give no per-round figure rather than a wrong one.
    expect(summarize([30, 40].map(run), 25, 0, [25].map(run)).roundRatio).toBeUndefined();
  });

  it('fails a target over its limit and says how the rounds spread', () => {
    const stats = (medianMs: number, ratio: number, extra: Partial<Stats> = {}): Stats => ({
      runs: 30,
      medianMs,
      p25Ms: medianMs,
      p75Ms: medianMs,
      p95Ms: medianMs,
      minMs: medianMs,
      ratio,
      badRuns: 0,
      ...extra,
    });
    const row = (name: string, up: Stats): HookResult => ({ name, up, hung: stats(500, 20), down: stats(50, 1.9) });
    const results = [
      row('session-start', stats(40.3, 1.31, { roundRatio: { p25: 1.25, median: 1.29, p75: 1.34 } })),
      row('user-prompt-submit (not a call)', stats(33, 1.07)),
      row('user-prompt-submit (a call)', stats(44, 1.4)),
      row('stop', stats(39, 1.27, { badRuns: 1 })),
      row('session-end', stats(36, 1.2)),
    ];
    const floors = [row(FLOOR_SOCKET, stats(37, 1.21))];
    const verdicts = hooksBenchVerdicts(results, floors, [{ name: 'session-end', event: 'session-end' }], DAEMON_WAIT_MS);
    const line = (label: string) => verdicts.find((v) => v.label === label)!.line;
    expect(line('SessionStart with the daemon up')).toBe(
      'FAIL  SessionStart with the daemon up: 40.3 ms = 1.31× node -e 0 (≤ 1.3×); per round 1.29× (quartiles 1.25–1.34×); its floor: read stdin + node:net round trip is 1.21×',
    );
    expect(line('UserPromptSubmit that is not a call, daemon up')).toMatch(/^PASS /);
    // A bad run fails a target whatever its time.
    expect(line('Stop with the daemon up')).toMatch(/^FAIL .*; 1 bad run\(s\)$/);
    expect(line('session-start, daemon down, prepared load valid')).toMatch(/^PASS .*1\.90×/);
    expect(line('session-end fails open, daemon hung')).toBe(
      'PASS  session-end fails open, daemon hung: 500 ms (≤ 1250 ms: its wait + 1000)',
    );
  });
});
