import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { killAndWait, runNode, spawnDaemon, waitDrained, waitFor, waitReady, type ChildRun } from './daemon-kit.js';

const WRITERS = 8;
const EVENTS = 50;
/** Writers pause before these events; each kill happens after a gate opens, mid-stream. */
const GATES = [10, 25];

/**
 * APP-3 end to end: eight sessions send their unanswered events while the daemon is SIGKILLed
 * and restarted twice. Every event must be captured at least once and, after dedupe by eventId
 * (the capture handler's job), exactly once and in each session's order.
 */
describe('no turn lost', () => {
  const home: TempHome = makeTempHome();
  const log = path.join(home.root, 'handled.log');
  const runs: ChildRun[] = [];
  afterAll(async () => {
    for (const run of runs) await killAndWait(run);
    home.cleanup();
  });

  const handled = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
  const spooledNow = () => fs.readdirSync(home.config().paths.spoolDir).filter((name) => name.endsWith('.json')).length;
  /** Events the system has taken in: captured, or waiting in the spool. */
  const received = () => handled().length + spooledNow();
  const startDaemon = async () => {
    const run = spawnDaemon(home, { KIOKU_TEST_HANDLED_LOG: log });
    runs.push(run);
    await waitReady(home, run);
    return run;
  };

  it('captures every event of 8 concurrent writers across 2 daemon kills', async () => {
    let daemon = await startDaemon();
    const writers = Array.from({ length: WRITERS }, (_, writer) => {
      const run = runNode('test/ipc/fixtures/event-writer.ts', [], {
        ...home.env,
        KIOKU_WRITER: String(writer),
        KIOKU_WRITER_COUNT: String(EVENTS),
        KIOKU_WRITER_GATES: GATES.join(','),
        KIOKU_WRITER_GATE_DIR: home.root,
      });
      runs.push(run);
      return run;
    });
    const writersRunning = () => writers.filter((w) => w.isRunning()).length;

    let killsDuringRun = 0;
    for (let gate = 1; gate <= GATES.length; gate++) {
      await waitFor(() => writers.every((w) => w.output().stdout.includes(`at-gate ${gate}`)), `every writer to reach gate ${gate}`);
      const before = received();
      fs.writeFileSync(path.join(home.root, `gate-${gate}`), '');
      await waitFor(() => received() >= before + 3 * WRITERS, `the writers to stream after gate ${gate}`);
      await killAndWait(daemon, 'SIGKILL');
      if (writersRunning() === WRITERS) killsDuringRun++;
      const spooledAtKill = spooledNow();
      await waitFor(
        () => spooledNow() >= spooledAtKill + WRITERS || writersRunning() === 0,
        'the writers to spool while the daemon is down',
      );
      daemon = await startDaemon();
    }

    const summaries = await Promise.all(
      writers.map(async (w) => {
        expect(await w.exited).toEqual({ code: 0, signal: null });
        const last = w.output().stdout.trim().split('\n').pop()!;
        return JSON.parse(last) as { writer: number; sent: number; spooled: number };
      }),
    );
    await waitDrained(home, daemon);

    expect(killsDuringRun).toBe(GATES.length);
    // The daemon really was down while writers wrote: events went through both paths.
    expect(summaries.reduce((sum, s) => sum + s.spooled, 0)).toBeGreaterThan(0);
    expect(summaries.reduce((sum, s) => sum + s.sent, 0)).toBeGreaterThan(0);

    const ids = handled();
    const firstSeen = [...new Set(ids)];
    expect(firstSeen).toHaveLength(WRITERS * EVENTS);
    for (let writer = 0; writer < WRITERS; writer++) {
      const order = firstSeen.filter((id) => id.startsWith(`w${writer}-`));
      expect(order).toEqual(Array.from({ length: EVENTS }, (_, seq) => `w${writer}-${String(seq).padStart(3, '0')}`));
    }
    // Duplicates happen only around a kill: handled but killed before the delete, or spooled by
    // the daemon and again by a writer that saw its connection close.
    expect(ids.length - firstSeen.length).toBeLessThanOrEqual(GATES.length * (WRITERS + 1));
  });
});
