import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookCall } from '../../common/hook-protocol.js';
import { requestHook } from '../../main/core/platform/ipc/ipc-client.js';
import { SPOOL_FAILED, SPOOL_PROCESSING, writeSpoolRecord } from '../../main/core/platform/ipc/spool-writer.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { endpointOf, killAndWait, spawnDaemon, waitDrained, waitReady, type ChildRun } from './daemon-kit.js';

const stopCall = (eventId: string): HookCall => ({ eventId, assistant: 'claude', event: 'stop', payload: { eventId }, env: {} });
const handled = (log: string) => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
const spoolEntries = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.json')) : []);

describe('the spool through a real daemon process', () => {
  let home: TempHome;
  const runs: ChildRun[] = [];
  const start = (env: NodeJS.ProcessEnv = {}) => {
    const run = spawnDaemon(home, { KIOKU_TEST_HANDLED_LOG: path.join(home.root, 'handled.log'), ...env });
    runs.push(run);
    return run;
  };
  afterEach(async () => {
    for (const run of runs.splice(0)) await killAndWait(run);
    home.cleanup();
  });

  it('ingests events spooled while it was down exactly once, in order, before it says ready', async () => {
    home = makeTempHome();
    const { spoolDir } = home.config().paths;
    for (const id of ['e1', 'e2', 'e3']) writeSpoolRecord(spoolDir, stopCall(id), 'hook');
    const run = start();
    await waitReady(home, run);
    const log = path.join(home.root, 'handled.log');
    expect(handled(log)).toEqual(['e1', 'e2', 'e3']);
    expect(spoolEntries(spoolDir)).toEqual([]);
    expect(spoolEntries(path.join(spoolDir, SPOOL_PROCESSING))).toEqual([]);

    // A restart finds nothing left to do: exactly once.
    await killAndWait(run, 'SIGTERM');
    await waitReady(home, start());
    expect(handled(log)).toEqual(['e1', 'e2', 'e3']);
  });

  it('makes a live unanswered event durable, acknowledges it at once, and captures it after the older spool', async () => {
    home = makeTempHome();
    const { spoolDir } = home.config().paths;
    const run = start();
    await waitReady(home, run);
    writeSpoolRecord(spoolDir, stopCall('spooled-first'), 'hook');
    const reply = await requestHook(endpointOf(home), { id: 'live-second', assistant: 'claude', event: 'stop', payload: {} }, 2_000);
    expect(reply).toMatchObject({ ok: true, reply: { ok: true, stdout: '', exitCode: 0 } });
    await waitDrained(home, run);
    expect(handled(path.join(home.root, 'handled.log'))).toEqual(['spooled-first', 'live-second']);
  });

  it('recovers an event left in processing/ by a daemon that crashed while handling it', async () => {
    home = makeTempHome();
    const { spoolDir } = home.config().paths;
    for (const id of ['a', 'b', 'c']) writeSpoolRecord(spoolDir, stopCall(id), 'hook');
    const log = path.join(home.root, 'handled.log');
    const crashing = start({ KIOKU_TEST_CRASH_ONCE: 'b' });
    expect((await crashing.exited).signal).toBe('SIGKILL');
    expect(handled(log)).toEqual(['a']);
    expect(spoolEntries(path.join(spoolDir, SPOOL_PROCESSING))).toHaveLength(1);
    expect(spoolEntries(spoolDir)).toHaveLength(1);

    await waitReady(home, start({ KIOKU_TEST_CRASH_ONCE: 'b' }));
    expect(handled(log)).toEqual(['a', 'b', 'c']);
    expect(spoolEntries(path.join(spoolDir, SPOOL_PROCESSING))).toEqual([]);
  });

  it('moves a spool file that is not an event to failed/ and goes on', async () => {
    home = makeTempHome();
    const { spoolDir } = home.config().paths;
    writeSpoolRecord(spoolDir, stopCall('before'), 'hook');
    const broken = path.join(spoolDir, path.basename(writeSpoolRecord(spoolDir, stopCall('broken'), 'hook')));
    fs.writeFileSync(broken, '{"v":1,"eventId":');
    writeSpoolRecord(spoolDir, stopCall('after'), 'hook');
    const run = start();
    await waitReady(home, run);
    expect(handled(path.join(home.root, 'handled.log'))).toEqual(['before', 'after']);
    expect(spoolEntries(path.join(spoolDir, SPOOL_FAILED))).toEqual([path.basename(broken)]);
    expect(fs.readFileSync(path.join(home.config().paths.logsDir, 'kioku.log'), 'utf8')).toMatch(/is not an event .*moved it to .*failed/);
  });
});
