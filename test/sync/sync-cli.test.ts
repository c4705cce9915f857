import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runKioku } from '../helpers/run-cli.js';
import { makeCluster, remember, writeRole, type Cluster } from './sync-kit.js';

const ROLE = 'LUMI01';
let cluster: Cluster | undefined;
afterEach(() => {
  cluster?.cleanup();
  cluster = undefined;
});

const remoteBranches = (remote: string) =>
  spawnSync('git', ['--git-dir', remote, 'branch', '--format=%(refname:short)'], { encoding: 'utf8', timeout: 30_000 })
    .stdout.split('\n')
    .filter(Boolean);

describe('kioku sync (the command)', () => {
  it('init lists what would leave the machine and sends nothing without agreement; --yes sends; status, log and kioku status show it', async () => {
    cluster = makeCluster();
    const a = cluster.machine('desk');
    writeRole(a, ROLE, '露米');
    await remember(a, ROLE, 'daily', '使用者喜歡 tabs');

    expect(runKioku(['sync', 'status'], a.env).stdout).toContain('not set up');
    const asked = runKioku(['sync', 'init', '--remote', cluster.remote], a.env);
    expect(asked.code).toBe(3);
    expect(asked.stderr).toContain(`These files will be sent to ${cluster.remote}`);
    expect(asked.stderr).toMatch(/LUMI01: \d+ file\(s\)/);
    expect(asked.stderr).not.toMatch(/^\s+\.kioku:/m); // the state dir is never listed as outgoing
    expect(remoteBranches(cluster.remote)).toEqual([]);

    const sent = runKioku(['sync', 'init', '--remote', cluster.remote, '--yes'], a.env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(remoteBranches(cluster.remote).sort()).toEqual(['kioku-memory', 'kioku-roles']);

    const now = JSON.parse(runKioku(['sync', 'now', '--json'], a.env).stdout) as { outcome: string };
    expect(now.outcome).toBe('ok');
    const status = JSON.parse(runKioku(['sync', 'status', '--json'], a.env).stdout) as {
      configured: boolean;
      machine: string;
      last: { outcome: string };
    };
    expect(status).toMatchObject({ configured: true, machine: 'desk', last: { outcome: 'ok' } });
    expect(runKioku(['sync', 'log'], a.env).stdout).toContain('Kioku (desk)');
    expect(runKioku(['status'], a.env).stdout).toContain('同步 sync: desk ↔');
    expect(runKioku(['diagnose'], a.env).stdout).toMatch(/✓ 同步 sync/);
  });

  it('refuses a remote URL with credentials and stores them nowhere', () => {
    cluster = makeCluster();
    const a = cluster.machine('desk');
    const secret = 's3cr3t-T0ken-value';
    const result = runKioku(['sync', 'init', '--remote', `https://me:${secret}@git.example.com/me/kioku.git`, '--yes'], a.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('credential');
    expect(result.stderr).not.toContain('at ');
    const grep = spawnSync('grep', ['-rl', secret, a.root], { encoding: 'utf8', timeout: 30_000 });
    expect(grep.stdout).toBe('');
    expect(fs.existsSync(path.join(a.env.ROLE_MEMORY_HOME!, '.git'))).toBe(false);
  });
});
