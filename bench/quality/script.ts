import { addMinutes, ClaudeSession, HarnessError, type LocalTime, type QualityHome } from './harness.js';
import type { Check, RecallHit, ScenarioRun } from './checks.js';

/** A scenario: days of a user's life played through the hooks, then its checks. */
export interface Scenario {
  name: string;
  description: string;
  play: (home: QualityHome) => Promise<ScenarioRun>;
  checks: Check[];
}

export function newRun(home: QualityHome): ScenarioRun {
  return { home, ctx: {}, ups: {}, recall: {}, nights: [] };
}

export interface RoleSpec {
  id: string;
  name: string;
  emoji: string;
  nature: string;
  vibe: string;
  relationship: string;
  aliases?: string[];
}

export function createRoles(home: QualityHome, roles: RoleSpec[], now: LocalTime): void {
  for (const role of roles) {
    home.cliOk(
      [
        'role',
        'new',
        '--id',
        role.id,
        '--name',
        role.name,
        '--emoji',
        role.emoji,
        '--nature',
        role.nature,
        '--vibe',
        role.vibe,
        '--relationship',
        role.relationship,
        ...(role.aliases ? ['--aliases', role.aliases.join(',')] : []),
      ],
      now,
    );
  }
  home.cliOk(['role', 'use', roles[0]!.id], now);
}

/** A turn: what the user types, the reply (one string per streamed text block), and an optional label for its UserPromptSubmit output. */
export type Turn = [user: string, assistant: string | string[], label?: string];

/**
 * One Claude Code session: SessionStart at `start` (its context kept under `ctxLabel` when given),
 * the turns five minutes apart, SessionEnd five minutes after the last.
 */
export async function session(
  run: ScenarioRun,
  cwd: string,
  id: string,
  start: LocalTime,
  turns: Turn[],
  ctxLabel?: string,
): Promise<void> {
  // Daemon mode: the daemon runs for the session. It is started with the session's time as its
  // frozen clock because it stamps each captured turn with its own clock when it receives it
  // (a daemon started on day 1 with KIOKU_NOW frozen would date every later turn on day 1).
  if (run.home.mode === 'daemon') await run.home.startDaemon(start);
  const s = new ClaudeSession(run.home, cwd, id);
  const ctx = await s.start(start);
  if (ctxLabel) run.ctx[ctxLabel] = ctx;
  let at = addMinutes(start, 1);
  for (const [user, assistant, label] of turns) {
    const injected = await s.turn(at, user, assistant);
    if (label) run.ups[label] = injected;
    at = addMinutes(at, 5);
  }
  await s.end(at);
  await run.home.waitIdle(at);
  await run.home.stopDaemon();
}

/** The nightly consolidation, as cron (or the tray) runs it: `kioku sleep` at 23:30 that day. */
export async function night(run: ScenarioRun, day: string): Promise<void> {
  const at = `${day}T23:30:00`;
  await run.home.waitIdle(at);
  const result = run.home.cli(['sleep', '--force', '--json'], at);
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    throw new HarnessError(`kioku sleep on ${day} printed no JSON (exit ${result.code}): ${result.stderr.trim().slice(0, 300)}`);
  }
  run.nights.push({ night: day, code: result.code, result: parsed, stderr: result.stderr.trim().slice(0, 500) });
}

/** `kioku memory recall --role R --query Q --json` run in `cwd` (the project the assistant works in), kept under `label`. */
export function recall(run: ScenarioRun, label: string, role: string, query: string, now: LocalTime, cwd: string): void {
  const out = run.home.cli(['memory', 'recall', '--role', role, '--query', query, '--limit', '5', '--json'], now, undefined, cwd);
  if (out.code !== 0) throw new HarnessError(`kioku memory recall --query ${query} exited ${out.code}: ${out.stderr.trim().slice(0, 300)}`);
  try {
    run.recall[label] = JSON.parse(out.stdout) as RecallHit[];
  } catch {
    throw new HarnessError(`kioku memory recall --query ${query} printed no JSON: ${out.stdout.slice(0, 200)}`);
  }
}
