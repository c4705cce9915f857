import fs from 'node:fs';
import path from 'node:path';
import { KiokuError, describeError, isKiokuError } from '../../../../common/errors.js';
import type { HookEventName } from '../../../../common/hook-events.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import { loadConfig, type KiokuConfig } from '../../platform/config/config.js';
import { countSpoolPending } from '../daemon/spool-ingest.js';
import { seedMemory } from '../../store/memory/seed-memory.js';
import { createRole, planRoleChange } from '../../store/roles/role-editor.js';
import { roleLockPath } from '../../store/sessions/role-lock-file.js';
import { ClaudeSession } from './claude-session.js';
import { SpoolProcessor, type QueuedOutcome } from './demo-capture.js';
import { createDemoHome, removeDemoHome, type DemoHome } from './demo-home.js';
import { DEMO_ROLE, DEMO_SEED, DEMO_SESSIONS, DEMO_TURNS } from './demo-script.js';
import type { DemoReport, DemoStep, DemoStepId } from './demo-types.js';
import { checkHookClient, runHookProcess, type HookRun } from './hook-process.js';

export interface DemoOptions {
  /** The hook client to run (dist/hooks/kioku-hook.js in an install; a bundle in tests). */
  hookClientPath: string;
  /** Delete the demo home at the end (also after a failure). */
  clean?: boolean;
  /** The user's environment; only what demoEnv carries over is used (KIOKU_NOW, TZ, PATH…). */
  env?: NodeJS.ProcessEnv;
  /** Where the throw-away home is created (default: the OS temp folder). */
  tmpRoot?: string;
  /** Called as each step finishes, so the narration appears while the demo runs. */
  onStep?: (step: DemoStep) => void;
  hookTimeoutMs?: number;
}

/** What each step is called in an error message. */
const STEP_NAMES: Record<DemoStepId, string> = {
  home: 'creating the demo home',
  role: 'creating the sample role',
  seed: 'seeding the background memory',
  'session-start': 'the first SessionStart',
  turn: 'replaying the session',
  'session-end': 'SessionEnd',
  inbox: 'reading the inbox',
  'next-session': 'the next SessionStart',
};

class DemoRun {
  readonly steps: DemoStep[] = [];
  current: DemoStepId = 'home';
  readonly spool: SpoolProcessor;

  constructor(
    readonly home: DemoHome,
    readonly config: KiokuConfig,
    private readonly options: DemoOptions,
  ) {
    this.spool = new SpoolProcessor(config, home.root);
  }

  emit(step: DemoStep): void {
    this.steps.push(step);
    this.options.onStep?.(step);
  }

  rel(file: string): string {
    return path.relative(this.home.root, file);
  }

  /** One hook event through the real client; a non-zero exit is a broken client, never normal. */
  async hook(event: HookEventName, payload: Record<string, unknown>): Promise<HookRun> {
    const run = await runHookProcess(event, payload, {
      clientPath: this.options.hookClientPath,
      env: this.home.env,
      cwd: this.home.projectDir,
      timeoutMs: this.options.hookTimeoutMs,
    });
    if (run.exitCode !== 0) {
      throw new KiokuError('IO', `the hook client exited with code ${run.exitCode} on ${event} (it must always exit 0)`, {
        hint: run.stderr.trim() || 'run again with KIOKU_DEBUG=1',
      });
    }
    return run;
  }

  /** A hook that had to answer and said nothing means the persona did not load: stop there. */
  expectAnswer(run: HookRun): void {
    if (run.stdout.trim()) return;
    throw new KiokuError('IO', `the hook client answered ${run.event} with nothing: the role did not load`, {
      hint: run.stderr.trim() || `see ${path.join(this.config.paths.logsDir, 'hooks.log')}`,
    });
  }

  /** Process what the hook client spooled, as the daemon would; a failed event stops the demo. */
  async drainSpool(roleId: string): Promise<QueuedOutcome[]> {
    const outcomes = await this.spool.drain(roleId);
    if (this.spool.failed > 0) {
      throw new KiokuError('IO', `${this.spool.failed} spooled event(s) could not be processed`, {
        hint: `see ${path.join(this.config.paths.logsDir, 'kioku.log')} and ${path.join(this.config.paths.spoolDir, 'failed')}`,
      });
    }
    return outcomes;
  }
}

async function createSampleRole(run: DemoRun): Promise<string> {
  const plan = planRoleChange(run.config, DEMO_ROLE);
  if (plan.kind !== 'create')
    throw new KiokuError('ALREADY_EXISTS', `role ${plan.role.id} already exists in the fresh demo home ${run.home.roleHome}`);
  const created = createRole(run.config, plan);
  const { role } = created;
  run.emit({
    id: 'role',
    roleId: role.id,
    name: role.name,
    emoji: role.emoji,
    nature: role.nature,
    vibe: role.vibe,
    files: role.files.map((f) => run.rel(f)),
    memoryDir: run.rel(created.memoryDir),
    active: created.madeActive,
  });
  run.current = 'seed';
  const seeded = await seedMemory(run.config, role.id, DEMO_SEED);
  run.emit({ id: 'seed', file: run.rel(seeded.memory.path), summary: seeded.memory.summary });
  return role.id;
}

async function replaySession(run: DemoRun, roleId: string, now: Date): Promise<void> {
  const session = new ClaudeSession(DEMO_SESSIONS.first, run.home.projectDir, run.home.transcriptDir, now);
  run.current = 'session-start';
  const start = await run.hook('session-start', session.sessionStart('startup'));
  run.expectAnswer(start);
  run.emit({ id: 'session-start', sessionId: session.sessionId, transcript: run.rel(session.transcriptPath), hook: start });
  run.current = 'turn';
  for (const [index, turn] of DEMO_TURNS.entries()) {
    // The harness order: UserPromptSubmit before the model answers, the transcript as it goes,
    // Stop when the reply is done (its payload carries the reply; the file may lag behind).
    const prompt = await run.hook('user-prompt-submit', session.userPromptSubmit(turn.user));
    const transcriptLines = session.writeTurn(index, turn.user, turn.assistant);
    const stop = await run.hook('stop', session.stop(turn.assistant));
    const spoolPending = countSpoolPending(run.config.paths.spoolDir);
    const captured = await run.drainSpool(roleId);
    run.emit({
      id: 'turn',
      index,
      user: turn.user,
      assistant: turn.assistant,
      shows: turn.shows,
      prompt,
      transcriptLines,
      stop,
      spoolPending,
      captured,
    });
  }
  run.current = 'session-end';
  // Without it the first session would still hold the role's lock (LOCK-1) and the next
  // SessionStart would be told the role is busy elsewhere.
  const end = await run.hook('session-end', session.sessionEnd());
  const lockReleased = !fs.existsSync(roleLockPath(run.config, roleId));
  const spoolPending = countSpoolPending(run.config.paths.spoolDir);
  run.emit({ id: 'session-end', hook: end, spoolPending, lockReleased, captured: await run.drainSpool(roleId) });
}

async function showInboxAndReload(run: DemoRun, roleId: string, now: Date): Promise<string> {
  run.current = 'inbox';
  const entries = run.spool.inbox(roleId);
  if (entries.length === 0)
    throw new KiokuError('IO', 'the session was replayed but capture wrote nothing to the inbox', {
      hint: `see ${path.join(run.config.paths.logsDir, 'kioku.log')}`,
    });
  run.emit({ id: 'inbox', handled: run.spool.handled, failed: run.spool.failed, entries });
  run.current = 'next-session';
  const next = new ClaudeSession(DEMO_SESSIONS.next, run.home.projectDir, run.home.transcriptDir, new Date(now.getTime() + 3_600_000));
  const start = await run.hook('session-start', next.sessionStart('startup'));
  run.expectAnswer(start);
  run.emit({ id: 'next-session', sessionId: next.sessionId, hook: start });
  return start.stdout;
}

function failure(error: unknown, run: DemoRun, kept: boolean): KiokuError {
  const where = `kioku demo failed while ${STEP_NAMES[run.current]}`;
  const keptHint = kept
    ? `the demo home is kept for a look: ${run.home.root}`
    : 'run again without --clean to keep the demo home and its logs';
  if (isKiokuError(error))
    return new KiokuError(error.code, `${where}: ${error.message}`, {
      hint: [error.hint, keptHint].filter(Boolean).join('; '),
      cause: error,
    });
  return new KiokuError('IO', `${where}: ${describeError(error)}`, { hint: keptHint, cause: error });
}

/**
 * `kioku demo` (CLI.md; issue #3 item 7): a throw-away home, a sample role, a sample session
 * replayed through the real hook client, the spool processed, and what the next SessionStart
 * would inject. Returns the report; throws a KiokuError naming the step that failed.
 */
export async function runDemo(options: DemoOptions): Promise<DemoReport> {
  checkHookClient(options.hookClientPath);
  const home = createDemoHome(options.env ?? process.env, options.tmpRoot);
  const config = loadConfig(home.env);
  const run = new DemoRun(home, config, options);
  const now = config.clock.now();
  try {
    run.emit({
      id: 'home',
      home: home.root,
      roleHome: run.rel(home.roleHome),
      memoryHome: run.rel(home.memoryHome),
      projectDir: run.rel(home.projectDir),
      now: formatLocalIso(now),
      clockFixed: Boolean(home.env.KIOKU_NOW?.trim()),
      hookClient: options.hookClientPath,
    });
    run.current = 'role';
    const roleId = await createSampleRole(run);
    await replaySession(run, roleId, now);
    const injection = await showInboxAndReload(run, roleId, now);
    return { ok: true, home: home.root, kept: !options.clean, roleId, steps: run.steps, injection };
  } catch (error) {
    throw failure(error, run, !options.clean);
  } finally {
    run.spool.close();
    if (options.clean) removeDemoHome(home);
  }
}
