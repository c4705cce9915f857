import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SpoolRecord } from '../../common/hook-protocol.js';
import { SPOOL_FAILED, SPOOL_PROCESSING } from '../../main/core/platform/ipc/spool-writer.js';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { guardChild, SHORT_CHILD_DEADLINE_MS, WATCHDOG_ARGS } from '../helpers/child-guard.js';
import { bundled, runNode } from '../ipc/daemon-kit.js';
import { ACTIVE, CALLEE, claudePayload, makeHookHome, runHook, type HookHome } from './hook-kit.js';

/**
 * Issue 13, "the spool is drained by whoever runs": with no app and no daemon (install-cron
 * users, OPS-2), the hook client spools every Stop; `kioku sleep` (what cron runs) captures those
 * turns first, through the daemon's own queue handler, and consolidates them the same run —
 * exactly once, even when two runs overlap.
 */
let home: HookHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const CLI = 'test/ipc/fixtures/kioku-cli.ts';
const jsonFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.json')) : []);

const TURNS: Array<[string, string, string]> = [
  ['sess-a', '記住：部署之前一定要先跑 smoke test', '好，我記住了：部署前先跑 smoke test。'],
  ['sess-b', '請記住，以後 commit 訊息都用英文寫', '了解，以後 commit 訊息一律用英文。'],
  ['sess-c', '記住：週五下午不要部署', '好，週五下午不部署。'],
];

/** Each turn's Stop through the real hook client, with no daemon: it spools. Returns the event ids. */
async function spoolTurns(h: HookHome): Promise<string[]> {
  for (const [session, user, reply] of TURNS) {
    h.transcript(session, [
      ['先幫我看一下 CI 為什麼紅了', 'CI 的 lint 步驟失敗，是少了一個分號。'],
      [user, reply],
    ]);
    const run = await runHook('stop', claudePayload(h, 'stop', session, { last_assistant_message: reply }), h.env);
    expect(run).toMatchObject({ code: 0, signal: null, stdout: '', stderr: '' });
  }
  const { spoolDir } = h.config().paths;
  const records = jsonFiles(spoolDir).map((name) => JSON.parse(fs.readFileSync(path.join(spoolDir, name), 'utf8')) as SpoolRecord);
  expect(records.map((record) => [record.event, record.spooledBy])).toEqual(TURNS.map(() => ['stop', 'hook']));
  return records.map((record) => record.eventId);
}

const memoriesOf = (h: HookHome) => loadRoleMemories(h.memoryHome, ACTIVE.id).memories;
const captureSource = (source: unknown) => String(source ?? '').startsWith('capture:');

/** Log lines of the queue handler, one per event it handled (handle-queued-call.ts). */
function captureLines(h: HookHome): string[] {
  const log = path.join(h.config().paths.logsDir, 'kioku.log');
  return fs.existsSync(log)
    ? fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => /\[capture\]/.test(line) && / stop \S+ for /.test(line))
    : [];
}

interface SleepJson {
  roles: Array<{ id: string; ok: boolean; processed: number }>;
  spool?: { ingested: number; failed: number; busy?: { pid: number } };
}

function expectSpoolEmpty(h: HookHome): void {
  const { spoolDir } = h.config().paths;
  expect(jsonFiles(spoolDir)).toEqual([]);
  expect(jsonFiles(path.join(spoolDir, SPOOL_PROCESSING))).toEqual([]);
  expect(jsonFiles(path.join(spoolDir, SPOOL_FAILED))).toEqual([]);
}

describe('kioku sleep with no daemon drains the spool first', () => {
  it('captures the spooled turns under the role and consolidates them the same run', async () => {
    const h = (home = await makeHookHome());
    const eventIds = await spoolTurns(h);
    expect(memoriesOf(h).filter((m) => captureSource(m.extra.source))).toEqual([]); // nothing condensed yet

    const run = runNode(CLI, ['sleep', '--force', '--json'], h.env, { deadlineMs: SHORT_CHILD_DEADLINE_MS });
    const exit = await run.exited;
    expect(exit, run.output().stderr).toEqual({ code: 0, signal: null });
    const result = JSON.parse(run.output().stdout) as SleepJson;
    expect(result.spool).toEqual({ ingested: 3, failed: 0 });
    const role = result.roles.find((r) => r.id === ACTIVE.id)!;
    // The inbox item that was there plus at least one memory per captured turn, all consolidated.
    expect(role).toMatchObject({ ok: true });
    expect(role.processed).toBeGreaterThanOrEqual(1 + TURNS.length);
    expectSpoolEmpty(h);

    const memories = memoriesOf(h);
    expect(memories.filter((m) => m.category === 'inbox')).toEqual([]);
    const text = memories.map((m) => `${m.summary}\n${m.body}`).join('\n');
    for (const words of ['smoke test', 'commit', '下午不要部署']) expect(text).toContain(words);
    // Each event was handled once, and filed under the active role.
    const lines = captureLines(h);
    for (const id of eventIds)
      expect(
        lines.filter((line) => line.includes(` ${id} for ${ACTIVE.id}:`)),
        id,
      ).toHaveLength(1);
  });

  it('kioku nap does the same: the turns spooled two hours ago are captured, then napped', async () => {
    const h = (home = await makeHookHome({ ROLE_NAP_MIN_INBOX: '2' }));
    const eventIds = await spoolTurns(h);
    const later = { ...h.env, KIOKU_NOW: '2026-03-10T16:00:00+08:00' };
    const run = runNode(CLI, ['nap', '--json'], later, { deadlineMs: SHORT_CHILD_DEADLINE_MS });
    expect(await run.exited, run.output().stderr).toEqual({ code: 0, signal: null });
    const result = JSON.parse(run.output().stdout) as SleepJson;
    expect(result.spool).toEqual({ ingested: 3, failed: 0 });
    expect(result.roles.find((r) => r.id === ACTIVE.id)).toMatchObject({ ok: true });
    expectSpoolEmpty(h);
    expect(memoriesOf(h).filter((m) => m.category === 'inbox')).toEqual([]);
    const lines = captureLines(h);
    for (const id of eventIds)
      expect(
        lines.filter((line) => line.includes(` ${id} for ${ACTIVE.id}:`)),
        id,
      ).toHaveLength(1);
  });

  it('files a turn under the role the session had when the hook ran, though the session files are gone before the run', async () => {
    const h = (home = await makeHookHome());
    const session = 'sess-call';
    const reply = '好，週五下午不部署。';
    h.transcript(session, [
      [`@${CALLEE.id} 接手一下`, '好的，我是結衣，接手了。'],
      ['記住：週五下午不要部署', reply],
    ]);
    expect((await runHook('session-start', claudePayload(h, 'session-start', session), h.env)).stdout).toContain(ACTIVE.name);
    expect(
      (await runHook('user-prompt-submit', claudePayload(h, 'user-prompt-submit', session, { prompt: `@${CALLEE.id} 接手一下` }), h.env))
        .stdout,
    ).toContain(CALLEE.name);
    expect(await runHook('stop', claudePayload(h, 'stop', session, { last_assistant_message: reply }), h.env)).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(await runHook('session-end', claudePayload(h, 'session-end', session), h.env)).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
    // Kept for a resume (issue 13): the record below must work without it all the same.
    fs.rmSync(path.join(h.roleHome, '.sessions'), { recursive: true, force: true });
    const { spoolDir } = h.config().paths;
    const records = jsonFiles(spoolDir).map((name) => JSON.parse(fs.readFileSync(path.join(spoolDir, name), 'utf8')) as SpoolRecord);
    const stop = records.find((record) => record.event === 'stop')!;
    expect(stop.roleId).toBe(CALLEE.id);

    const run = runNode(CLI, ['sleep', '--force', '--json'], h.env, { deadlineMs: SHORT_CHILD_DEADLINE_MS });
    expect(await run.exited, run.output().stderr).toEqual({ code: 0, signal: null });
    expect((JSON.parse(run.output().stdout) as SleepJson).spool).toMatchObject({ ingested: 2, failed: 0 });
    expect(captureLines(h).filter((line) => line.includes(` ${stop.eventId} for `))).toEqual([
      expect.stringContaining(` ${stop.eventId} for ${CALLEE.id}:`),
    ]);
    const textOf = (roleId: string) =>
      loadRoleMemories(h.memoryHome, roleId)
        .memories.map((m) => `${m.summary}\n${m.body}`)
        .join('\n');
    expect(textOf(CALLEE.id)).toContain('下午不要部署');
    expect(textOf(ACTIVE.id)).not.toContain('下午不要部署');
  });

  it('two overlapping runs (cron twice) capture each event exactly once between them', async () => {
    const h = (home = await makeHookHome());
    const eventIds = await spoolTurns(h);
    const script = bundled('test/ipc/fixtures/kioku-cli-barrier.ts');
    const racers = [0, 1].map(() => {
      const child = guardChild(
        spawn(process.execPath, [...WATCHDOG_ARGS, script, 'sleep', '--force', '--json'], { env: h.env, stdio: ['pipe', 'pipe', 'pipe'] }),
        SHORT_CHILD_DEADLINE_MS,
      );
      let out = '';
      let err = '';
      let onReady: () => void = () => undefined;
      const ready = new Promise<void>((resolve) => (onReady = resolve));
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.startsWith('ready\n')) onReady();
      });
      child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.stdin!.on('error', () => undefined);
      const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
        child.on('close', (code) => resolve({ code, out: out.slice('ready\n'.length), err })),
      );
      return {
        child,
        ready: Promise.race([ready, done.then(({ err: e }) => Promise.reject(new Error(`racer exited before it was ready: ${e}`)))]),
        done,
      };
    });
    await Promise.all(racers.map((racer) => racer.ready));
    for (const racer of racers) racer.child.stdin!.write('g');
    const results = await Promise.all(racers.map((racer) => racer.done));
    const parsed = results.map((r) => {
      expect(r.out, r.err).toMatch(/^\{/);
      return JSON.parse(r.out) as SleepJson;
    });
    // Between them every event once: the second run either waited for the first one's pass and
    // found nothing left, or took the lock first and left nothing for the other.
    expect(parsed.map((p) => p.spool?.ingested ?? -1).reduce((a, b) => a + b, 0)).toBe(TURNS.length);
    expect(parsed.every((p) => p.spool?.failed === 0 && p.spool.busy === undefined)).toBe(true);
    const lines = captureLines(h);
    for (const id of eventIds)
      expect(
        lines.filter((line) => line.includes(` ${id} for ${ACTIVE.id}:`)),
        id,
      ).toHaveLength(1);
    expectSpoolEmpty(h);
    const text = memoriesOf(h)
      .map((m) => `${m.summary}\n${m.body}`)
      .join('\n');
    for (const words of ['smoke test', 'commit', '下午不要部署']) expect(text).toContain(words);
  });
});
