import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleEntry } from '../helpers/bundle-entry.js';
import { guardChild } from '../helpers/child-guard.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * Real processes racing for one role lock: creation goes through O_EXCL/link and a takeover is
 * judged again under a guard, so exactly one contender may win, whatever the timing.
 *
 * The racers start on a barrier, not on a clock: each says `ready` once loaded, and when all
 * have, the test writes one byte to every racer's stdin. A racer that never gets the byte ends
 * itself (claim-race-child.ts), and every racer is killed at the end of the test in any case.
 */
let home: TempHome;
afterEach(() => home?.cleanup());

interface ChildResult {
  sessionId: string;
  ok: boolean;
  how?: string;
}

interface Racer {
  child: ChildProcess;
  ready: Promise<void>;
  result: Promise<ChildResult>;
}

function startRacer(script: string, env: NodeJS.ProcessEnv, args: string[]): Racer {
  const child = guardChild(spawn(process.execPath, [script, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] }));
  let out = '';
  let err = '';
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout!.on('data', (chunk) => {
    out += chunk;
    if (out.startsWith('ready\n')) onReady();
  });
  child.stderr!.on('data', (chunk) => (err += chunk));
  child.stdin!.on('error', () => undefined);
  const result = new Promise<ChildResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out.slice('ready\n'.length)) as ChildResult) : reject(new Error(`racer exited ${code}: ${err}`)),
    );
  });
  result.catch(() => undefined); // awaited by race(); this keeps an abandoned race from an unhandled rejection
  // A racer that dies before it is ready must fail the race, not leave it waiting.
  return { child, ready: Promise.race([ready, result.then(() => Promise.reject(new Error('racer exited before it was ready')))]), result };
}

async function race(contenders: number): Promise<{ results: ChildResult[]; lock: { sessionKey: string } }> {
  const script = bundleEntry('test/call/claim-race-child.ts');
  const transcripts = path.join(home.root, 'transcripts');
  fs.mkdirSync(transcripts, { recursive: true });
  const racers = Array.from({ length: contenders }, (_, i) => {
    const sessionId = `racer-${i}`;
    const transcript = path.join(transcripts, `${sessionId}.jsonl`);
    fs.writeFileSync(transcript, '{}\n');
    return startRacer(script, home.env, ['SILICA01', sessionId, transcript]);
  });
  await Promise.all(racers.map((racer) => racer.ready));
  for (const racer of racers) racer.child.stdin!.write('g');
  const results = await Promise.all(racers.map((racer) => racer.result));
  const lock = JSON.parse(fs.readFileSync(path.join(home.roleHome, '.locks', 'SILICA01.lock'), 'utf8')) as { sessionKey: string };
  return { results, lock };
}

describe('role lock races between processes', () => {
  it('a free role: exactly one contender creates the lock', async () => {
    home = makeTempHome();
    const { results, lock } = await race(6);
    const winners = results.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ how: 'created', sessionId: lock.sessionKey });
  });

  it('a stale lock: exactly one contender takes it over', async () => {
    home = makeTempHome();
    fs.mkdirSync(path.join(home.roleHome, '.locks'), { recursive: true });
    const stale = {
      role: 'SILICA01',
      sessionKey: 'gone',
      transcriptPath: path.join(home.root, 'deleted.jsonl'),
      assistant: 'claude',
      since: '2026-01-01T00:00:00+08:00',
    };
    fs.writeFileSync(path.join(home.roleHome, '.locks', 'SILICA01.lock'), JSON.stringify(stale));
    const { results, lock } = await race(6);
    const winners = results.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ how: 'taken-over', sessionId: lock.sessionKey });
  });
});
