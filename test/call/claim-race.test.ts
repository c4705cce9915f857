import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleEntry } from '../helpers/bundle-entry.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * Real processes racing for one role lock: creation goes through O_EXCL/link and a takeover is
 * judged again under a guard, so exactly one contender may win, whatever the timing.
 */
let home: TempHome;
afterEach(() => home?.cleanup());

interface ChildResult {
  sessionId: string;
  ok: boolean;
  how?: string;
}

function runChild(script: string, env: NodeJS.ProcessEnv, args: string[]): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as ChildResult) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

async function race(contenders: number): Promise<{ results: ChildResult[]; lock: { sessionKey: string } }> {
  const script = bundleEntry('test/call/claim-race-child.ts');
  const transcripts = path.join(home.root, 'transcripts');
  fs.mkdirSync(transcripts, { recursive: true });
  const startAt = String(Date.now() + 1500);
  const runs = Array.from({ length: contenders }, (_, i) => {
    const sessionId = `racer-${i}`;
    const transcript = path.join(transcripts, `${sessionId}.jsonl`);
    fs.writeFileSync(transcript, '{}\n');
    return runChild(script, home.env, ['SILICA01', sessionId, transcript, startAt]);
  });
  const results = await Promise.all(runs);
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
    const stale = { role: 'SILICA01', sessionKey: 'gone', transcriptPath: path.join(home.root, 'deleted.jsonl'), assistant: 'claude', since: '2026-01-01T00:00:00+08:00' };
    fs.writeFileSync(path.join(home.roleHome, '.locks', 'SILICA01.lock'), JSON.stringify(stale));
    const { results, lock } = await race(6);
    const winners = results.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ how: 'taken-over', sessionId: lock.sessionKey });
  });
});
