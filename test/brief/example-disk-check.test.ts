import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBrief } from '../../main/core/engine/brief/run-brief.js';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * resources/checks/example-disk.sh, the example morning-brief check: quiet while the disks are
 * fine, one line per file system at or above the limit. `df` is replaced by a fake on PATH so the
 * result does not depend on this machine's disks.
 */
const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'resources', 'checks', 'example-disk.sh');
const ROLE = 'DISK01';

let home: TempHome;
let bin: string;
beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T06:00:00+08:00' });
  bin = path.join(home.root, 'bin');
  fs.mkdirSync(bin);
});
afterEach(() => home.cleanup());

/** A `df -P -k` that reports these file systems: [mount, use%, available KiB]. */
function fakeDf(rows: [string, number, number][]): void {
  const lines = [
    'Filesystem 1024-blocks Used Available Capacity Mounted on',
    ...rows.map(([mount, use, avail]) => `/dev/x 100000000 1 ${avail} ${use}% ${mount}`),
  ];
  fs.writeFileSync(path.join(bin, 'df'), `#!/bin/sh\ncat <<'EOF'\n${lines.join('\n')}\nEOF\n`, { mode: 0o755 });
}

function runScript(env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(SCRIPT, [], {
    env: { HOME: home.root, ROLE_HOME: home.roleHome, PATH: `${bin}:/usr/bin:/bin`, ...env },
    encoding: 'utf8',
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  return { code: result.status, stdout: result.stdout };
}

describe('example-disk.sh', () => {
  it('is shipped executable', () => {
    expect(fs.statSync(SCRIPT).mode & 0o111).not.toBe(0);
  });

  it('is silent while every disk is below the limit', () => {
    fakeDf([['/', 50, 5_000_000]]);
    expect(runScript()).toEqual({ code: 0, stdout: '' });
  });

  it('prints one line per full file system (each mount once), at or above 90 % by default', () => {
    fakeDf([
      ['/', 90, 2_097_152],
      ['/', 90, 2_097_152],
      ['/home', 97, 524_288],
      ['/data', 89, 1],
    ]);
    expect(runScript()).toEqual({
      code: 0,
      stdout: '磁碟 / 使用率 90%（警戒 90%），剩餘 2.0 GB\n磁碟 /home 使用率 97%（警戒 90%），剩餘 0.5 GB\n',
    });
  });

  it('reads DISK_ALERT_PERCENT from the environment, else from the one line in ~/.roles/.env', () => {
    fakeDf([['/', 50, 5_000_000]]);
    expect(runScript({ DISK_ALERT_PERCENT: '40' }).stdout).toContain('使用率 50%（警戒 40%）');
    fs.writeFileSync(path.join(home.roleHome, '.env'), 'OTHER=1\nexport DISK_ALERT_PERCENT="45"\nSECRET=do-not-read\n');
    expect(runScript().stdout).toContain('使用率 50%（警戒 45%）');
    fs.writeFileSync(path.join(home.roleHome, '.env'), 'DISK_ALERT_PERCENT=not-a-number\n');
    expect(runScript().stdout).toBe('');
  });

  it('as a brief check: a memory only when a disk is full', async () => {
    const checks = path.join(home.roleHome, `${ROLE}.checks`);
    fs.mkdirSync(checks);
    fs.copyFileSync(SCRIPT, path.join(checks, 'example-disk.sh'));
    fs.chmodSync(path.join(checks, 'example-disk.sh'), 0o755);
    const config = () => home.config({ PATH: `${bin}:/usr/bin:/bin` });
    fakeDf([['/', 42, 9_000_000]]);
    expect((await runBrief(config(), ROLE)).memory).toBeNull();
    fakeDf([['/', 96, 300_000]]);
    const result = await runBrief(config(), ROLE);
    expect(result.memory?.summary).toBe('晨間狀態檢查：磁碟 / 使用率 96%（警戒 90%），剩餘 0.3 GB');
    expect(loadRoleMemories(home.memoryHome, ROLE).memories).toHaveLength(1);
  });
});
