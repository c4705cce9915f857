import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isKiokuError } from '../../common/errors.js';
import { syncNow } from '../../main/core/engine/sync/sync-now.js';
import { readSyncRecord } from '../../main/core/engine/sync/sync-state.js';
import { guardChild } from '../helpers/child-guard.js';
import { KIOKU_BIN } from '../helpers/run-cli.js';
import { initMachine, makeCluster, memoryIds, remember, writeRole, type Cluster, type Machine } from './sync-kit.js';

const ROLE = 'LUMI01';
let cluster: Cluster | undefined;
afterEach(() => {
  cluster?.cleanup();
  cluster = undefined;
});

function remoteFiles(remote: string, branch: string): string[] {
  const result = spawnSync('git', ['--git-dir', remote, 'ls-tree', '-r', '--name-only', branch], { encoding: 'utf8', timeout: 30_000 });
  return result.stdout.split('\n').filter(Boolean);
}

async function pair(): Promise<{ a: Machine; b: Machine }> {
  cluster = makeCluster();
  const a = cluster.machine('desk');
  const b = cluster.machine('laptop');
  writeRole(a, ROLE, '露米');
  await remember(a, ROLE, 'daily', '起點');
  await initMachine(a, cluster.remote);
  await initMachine(b, cluster.remote);
  return { a, b };
}

describe('sync under failure', () => {
  it('an unreachable remote: local changes are committed, the sync reports offline and backs off, and the next sync sends them', async () => {
    const { a, b } = await pair();
    const id = await remember(a, ROLE, 'inbox', '離線時記下的');
    const moved = `${cluster!.remote}.away`;
    fs.renameSync(cluster!.remote, moved);
    const offline = await syncNow(a.config());
    expect(offline.outcome).toBe('offline');
    expect(readSyncRecord(a.config().paths)).toMatchObject({ outcome: 'offline', failures: 1 });
    await syncNow(a.config());
    expect(readSyncRecord(a.config().paths)?.failures).toBe(2);
    fs.renameSync(moved, cluster!.remote);
    expect((await syncNow(a.config())).outcome).toBe('ok');
    expect(readSyncRecord(a.config().paths)).toMatchObject({ outcome: 'ok', failures: 0 });
    await syncNow(b.config());
    expect(memoryIds(b, ROLE)).toContain(id);
  });

  it('a secret in a hand-edited file stops the sync before anything is committed, naming the file', async () => {
    const { a } = await pair();
    const facts = path.join(a.env.ROLE_MEMORY_HOME!, 'FACT.md');
    fs.writeFileSync(facts, `# facts\n\nGitHub token: ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}\n`);
    const error = await syncNow(a.config()).catch((e: unknown) => e);
    expect(isKiokuError(error) && error.code).toBe('REFUSED');
    expect((error as Error).message).toContain(facts);
    expect(remoteFiles(cluster!.remote, 'kioku-memory')).not.toContain('FACT.md');
    const log = spawnSync('git', ['-C', a.env.ROLE_MEMORY_HOME!, 'log', '--name-only', '--format='], { encoding: 'utf8', timeout: 30_000 });
    expect(log.stdout).not.toContain('FACT.md');
    // A commit made by hand in the home meets the same check (the pre-commit hook sync init wrote).
    const gitEnv = { ...a.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    spawnSync('git', ['-C', a.env.ROLE_MEMORY_HOME!, 'add', 'FACT.md'], { env: gitEnv, timeout: 30_000 });
    const byHand = spawnSync('git', ['-C', a.env.ROLE_MEMORY_HOME!, 'commit', '-m', 'by hand'], {
      env: gitEnv,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(byHand.status).not.toBe(0);
    expect(byHand.stderr).toContain('FACT.md');
  });

  it('kill -9 in the middle of a sync (stuck in push): the next sync recovers and nothing is lost', async () => {
    const { a, b } = await pair();
    const ids = [await remember(a, ROLE, 'inbox', '被中斷的同步 1'), await remember(a, ROLE, 'daily', '被中斷的同步 2')];
    // A git that hangs on push, so the sync is caught between its merge and its push.
    const wrapper = path.join(cluster!.root, 'hang-bin');
    const marker = path.join(cluster!.root, 'pushing');
    fs.mkdirSync(wrapper);
    fs.writeFileSync(
      path.join(wrapper, 'git'),
      `#!/bin/sh\nfor arg in "$@"; do [ "$arg" = push ] && { touch '${marker}'; exec sleep 600; }; done\nexec /usr/bin/git "$@"\n`,
      { mode: 0o755 },
    );
    const child = guardChild(
      spawn(process.execPath, [KIOKU_BIN, 'sync', 'now'], {
        env: { ...a.env, PATH: `${wrapper}:${a.env.PATH}` },
        detached: true,
        stdio: 'ignore',
      }),
    );
    // Wait (up to a minute) for the wrapper's marker: the sync is then inside its push, where the kill must land.
    for (let i = 0; i < 600 && !fs.existsSync(marker); i++) await new Promise((r) => setTimeout(r, 100));
    expect(fs.existsSync(marker)).toBe(true);
    process.kill(-child.pid!, 'SIGKILL'); // the sync and its git, as a power cut would
    await new Promise((r) => child.once('exit', r));
    expect(fs.existsSync(path.join(a.env.ROLE_MEMORY_HOME!, '.kioku', 'sync.lock'))).toBe(true);

    const again = await syncNow(a.config(), { lockWaitMs: 5_000 });
    expect(again.outcome).toBe('ok');
    await syncNow(b.config());
    for (const id of ids) expect(memoryIds(b, ROLE)).toContain(id);
    expect(memoryIds(a, ROLE)).toEqual(memoryIds(b, ROLE));
  });

  it('a merge left half-done (MERGE_HEAD, a stale index.lock) is rolled back to the last commit and merged again', async () => {
    const { a, b } = await pair();
    const fromB = await remember(b, ROLE, 'daily', 'B 的新記憶');
    await syncNow(b.config());
    const mine = await remember(a, ROLE, 'daily', 'A 的新記憶');
    const dir = a.env.ROLE_MEMORY_HOME!;
    const env = { ...a.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    spawnSync('git', ['-C', dir, 'add', '-A'], { env, timeout: 30_000 });
    spawnSync('git', ['-C', dir, 'commit', '-qm', 'local'], { env, timeout: 30_000 });
    spawnSync('git', ['-C', dir, 'fetch', '-q', 'origin', '+refs/heads/kioku-memory:refs/remotes/origin/kioku-memory'], {
      env,
      timeout: 30_000,
    });
    spawnSync('git', ['-C', dir, 'merge', '--no-commit', '--no-ff', 'refs/remotes/origin/kioku-memory'], { env, timeout: 30_000 });
    expect(fs.existsSync(path.join(dir, '.git', 'MERGE_HEAD'))).toBe(true);
    fs.writeFileSync(path.join(dir, '.git', 'index.lock'), '');
    expect((await syncNow(a.config())).outcome).toBe('ok');
    await syncNow(b.config());
    for (const m of [a, b]) expect(memoryIds(m, ROLE)).toEqual(expect.arrayContaining([fromB, mine]));
    expect(memoryIds(a, ROLE)).toEqual(memoryIds(b, ROLE));
  });

  it('a file written by a hook between the commit and the merge is committed and merged on a second try', async () => {
    const { a, b } = await pair();
    const state = (m: Machine) => path.join(m.env.ROLE_MEMORY_HOME!, ROLE, 'state.json');
    fs.writeFileSync(state(b), `${JSON.stringify({ total_turns: 5 }, null, 2)}\n`);
    await syncNow(b.config());
    // A git that, right after fetching, lets "a Stop hook" count a turn on the desk.
    const wrapper = path.join(cluster!.root, 'hook-bin');
    const once = path.join(cluster!.root, 'hook-wrote');
    fs.mkdirSync(wrapper);
    const script = `#!/bin/sh\n/usr/bin/git "$@"; code=$?\nfor arg in "$@"; do [ "$arg" = fetch ] && [ ! -e '${once}' ] && { touch '${once}'; printf '{\\n  "total_turns": 2\\n}\\n' > '${state(a)}'; }; done\nexit $code\n`;
    fs.writeFileSync(path.join(wrapper, 'git'), script, { mode: 0o755 });
    const run = await syncNow(a.config({ PATH: `${wrapper}:${a.env.PATH}` }));
    expect(fs.existsSync(once)).toBe(true);
    expect(run.outcome).toBe('ok');
    await syncNow(b.config());
    for (const m of [a, b]) expect(JSON.parse(fs.readFileSync(state(m), 'utf8')).total_turns).toBe(7);
  });
});
