import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countSpoolPending } from '../../main/core/hosts/daemon/spool-ingest.js';
import { SPOOL_FAILED } from '../../main/core/platform/ipc/spool-writer.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { captureHomeEnv, createCaptureRole, filesWith, inboxTexts, replyMarker, userMarker } from './capture-session-kit.js';
import { bundled, killAndWait, runNode, waitDrained, waitFor, waitReady, type ChildRun } from './daemon-kit.js';

const WRITERS = 8;
const EVENTS = 50;
/** Every session pauses before these turns; the daemon is killed after each gate opens, mid-stream. */
const GATES = [12, 30];
/** Every 25th Stop of each session goes through the real hook client process (16 in all). */
const REAL_HOOK_EVERY = 25;
/** The machines are 2 cores, often shared with other test runs: waits are generous, never timed. */
const SLOW_MS = 120_000;

interface WriterSummary {
  writer: number;
  sent: number;
  spooled: number;
  realHook: number;
  realHookProblems: string[];
}

/**
 * Issue #3 "no turn lost", end to end: `kioku daemon` as shipped (the CLI bundled from
 * main/cli/kioku.ts, its own hook handlers, the local condenser) and eight Claude Code sessions
 * (fixtures/stop-writer.ts: a growing JSONL transcript, each Stop delivered with the hook
 * client's own functions, every 25th by the bundled hook client itself). Each session ends 50
 * turns that the local condenser keeps while the daemon is SIGKILLed twice and restarted.
 * Afterwards every turn is in the role's inbox exactly once — its words and its reply in the same
 * memory, nothing else there — and the spool is empty.
 */
describe('no turn lost (real daemon, real capture)', () => {
  const home: TempHome = makeTempHome(captureHomeEnv());
  const runs: ChildRun[] = [];
  afterAll(async () => {
    for (const run of runs) await killAndWait(run);
    home.cleanup();
  });

  const paths = home.config().paths;
  const spooledNow = () => countSpoolPending(paths.spoolDir);
  const startDaemon = async () => {
    const run = runNode('test/ipc/fixtures/kioku-cli.ts', ['daemon'], home.env);
    runs.push(run);
    // Ready means the spool left from before the start is ingested: after a kill that takes a while.
    await waitReady(home, run, SLOW_MS);
    return run;
  };
  const hooksLog = () => {
    const file = path.join(paths.logsDir, 'hooks.log');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  };

  it('keeps every turn of 8 concurrent sessions × 50 Stops across 2 daemon kills, each exactly once', { timeout: 300_000 }, async () => {
    createCaptureRole(home);
    const project = path.join(home.root, 'projects', 'shop-api');
    fs.mkdirSync(project, { recursive: true });
    let daemon = await startDaemon();

    const writers = Array.from({ length: WRITERS }, (_, writer) => {
      const run = runNode('test/ipc/fixtures/stop-writer.ts', [], {
        ...home.env,
        KIOKU_WRITER: String(writer),
        KIOKU_WRITER_COUNT: String(EVENTS),
        KIOKU_WRITER_GATES: GATES.join(','),
        KIOKU_WRITER_GATE_DIR: home.root,
        KIOKU_WRITER_TRANSCRIPTS: path.join(home.root, '.claude', 'projects', '-projects-shop-api'),
        KIOKU_WRITER_CWD: project,
        KIOKU_WRITER_REAL_HOOK_EVERY: String(REAL_HOOK_EVERY),
        KIOKU_HOOK_BUNDLE: bundled('hooks/kioku-hook.ts'),
      });
      runs.push(run);
      return run;
    });
    const turnsDone = (w: ChildRun) => (w.output().stdout.match(/^done \d+$/gm) ?? []).length;
    const writersRunning = () => writers.filter((w) => w.isRunning()).length;

    let killsMidStream = 0;
    for (let gate = 1; gate <= GATES.length; gate++) {
      await waitFor(
        () => writers.every((w) => w.output().stdout.includes(`at-gate ${gate}`) || !w.isRunning()),
        `every session to reach gate ${gate}`,
        SLOW_MS,
      );
      fs.writeFileSync(path.join(home.root, `gate-${gate}`), '');
      // Streaming through the live daemon: every session has ended two more turns.
      await waitFor(
        () => writers.every((w) => turnsDone(w) >= GATES[gate - 1]! + 2 || !w.isRunning()),
        `the sessions to stream after gate ${gate}`,
        SLOW_MS,
      );
      await killAndWait(daemon, 'SIGKILL');
      if (writersRunning() === WRITERS) killsMidStream++;
      // While it is down, Stops fall back to the spool (HOOK-5): wait until each session could have.
      const spooledAtKill = spooledNow();
      await waitFor(
        () => spooledNow() >= spooledAtKill + WRITERS || writersRunning() === 0,
        'the sessions to spool while the daemon is down',
        SLOW_MS,
      );
      daemon = await startDaemon();
    }

    const summaries = await Promise.all(
      writers.map(async (w) => {
        const exit = await w.exited;
        expect(exit, w.output().stderr).toEqual({ code: 0, signal: null });
        return JSON.parse(w.output().stdout.trim().split('\n').pop()!) as WriterSummary;
      }),
    );
    await waitDrained(home, daemon, SLOW_MS);

    expect(killsMidStream).toBe(GATES.length);
    expect(summaries.flatMap((s) => s.realHookProblems)).toEqual([]);
    expect(summaries.reduce((sum, s) => sum + s.realHook, 0)).toBe(WRITERS * (EVENTS / REAL_HOOK_EVERY));
    // Both paths were taken: Stops that found the daemon dead fell back to the spool, the
    // others were acknowledged by the daemon.
    expect(summaries.reduce((sum, s) => sum + s.spooled, 0)).toBeGreaterThan(0);
    expect(summaries.reduce((sum, s) => sum + s.sent, 0)).toBeGreaterThan(0);
    expect((hooksLog().match(/stop: daemon did not answer/g) ?? []).length).toBeGreaterThanOrEqual(WRITERS);

    const inbox = inboxTexts(home);
    const problems: string[] = [];
    for (let writer = 0; writer < WRITERS; writer++) {
      for (let seq = 0; seq < EVENTS; seq++) {
        const words = filesWith(inbox, userMarker(writer, seq));
        const reply = filesWith(inbox, replyMarker(writer, seq));
        if (words.length !== 1 || reply.length !== 1 || words[0] !== reply[0])
          problems.push(`${userMarker(writer, seq)} in ${JSON.stringify(words)}, ${replyMarker(writer, seq)} in ${JSON.stringify(reply)}`);
      }
    }
    expect(problems).toEqual([]);
    // One memory per turn and nothing else: no duplicate under another name, no stray item.
    expect(inbox.size).toBe(WRITERS * EVENTS);
    expect(spooledNow()).toBe(0);
    const failedDir = path.join(paths.spoolDir, SPOOL_FAILED);
    expect(fs.existsSync(failedDir) ? fs.readdirSync(failedDir) : []).toEqual([]);
  });
});
