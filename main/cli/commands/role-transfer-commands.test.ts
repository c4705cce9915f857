import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../common/errors.js';
import {
  SPLIT_ENGINEER_IDENTITY,
  SPLIT_ENGINEER_SOUL,
  handMadeTarGz,
  manifestEntryFor,
  writeText,
  type TarEntrySpec,
} from '../../../test/cli/role-test-fixtures.js';
import { makeTempHome, snapshotTree, type TempHome } from '../../../test/helpers/temp-home.js';
import { createCliContext } from '../cli-context.js';
import { exportArguments, runRoleExport, runRoleImport } from './role-transfer-commands.js';

// The command logic itself, not the built CLI (dist/ may be older than the source).
const homes: TempHome[] = [];
const startDir = process.cwd();
afterEach(() => {
  process.chdir(startDir);
  homes.splice(0).forEach((home) => home.cleanup());
});

/** ENGINEER01 (active) and NIGHT01, each with a memory folder. */
function twoRoles(): TempHome {
  const home = makeTempHome({ KIOKU_NOW: '2026-02-03T04:05:06+08:00' });
  homes.push(home);
  for (const id of ['ENGINEER01', 'NIGHT01']) {
    writeText(home.roleHome, `${id}.identity.md`, SPLIT_ENGINEER_IDENTITY.replace('id: ENGINEER01', `id: ${id}`));
    writeText(home.roleHome, `${id}.soul.md`, SPLIT_ENGINEER_SOUL.replace('id: ENGINEER01', `id: ${id}`));
    writeText(home.memoryHome, `${id}/inbox/20260101-000000-a1b2.md`, `---\nid: a\n---\n\n${id} 的記憶。\n`);
  }
  writeText(home.roleHome, '.active', 'ENGINEER01\n');
  return home;
}

function capture(home: TempHome) {
  const out = { stdout: '', stderr: '' };
  const ctx = createCliContext(home.env, { stdout: (text) => (out.stdout += text), stderr: (text) => (out.stderr += text) });
  return { ctx, out };
}

describe('role export <one argument>', () => {
  it('refuses a lone role ID as a usage error (exit 2) asking for the target, instead of exporting the current role into it', async () => {
    const home = twoRoles();
    // The reviewer's case: run from the memory home, where NIGHT01 is a folder (NIGHT01's memories).
    process.chdir(home.memoryHome);
    const before = [snapshotTree(home.roleHome), snapshotTree(home.memoryHome)];
    const { ctx } = capture(home);
    const refused = runRoleExport(ctx, 'NIGHT01', undefined);
    await expect(refused).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_USAGE', message: expect.stringContaining('`kioku role export NIGHT01 <path>`') }),
    );
    expect(exitCodeFor(await refused.catch((error: unknown) => error))).toBe(2);
    expect([snapshotTree(home.roleHome), snapshotTree(home.memoryHome)]).toEqual(before);
  });

  it('refuses an ID-shaped word that is neither a role nor an existing path', () => {
    const home = twoRoles();
    process.chdir(home.root);
    expect(() => exportArguments(home.config(), 'GHOST01', undefined)).toThrow(
      expect.objectContaining({ code: 'BAD_USAGE', message: expect.stringContaining('kioku role export GHOST01 <path>') }),
    );
  });

  it('still takes a folder that merely looks like an ID, and the path forms, as the target of the current role', () => {
    const home = twoRoles();
    process.chdir(home.root);
    fs.mkdirSync(path.join(home.root, 'BACKUP01'));
    expect(exportArguments(home.config(), 'BACKUP01', undefined)).toEqual({ id: 'ENGINEER01', target: 'BACKUP01' });
    expect(exportArguments(home.config(), './NIGHT01/', undefined)).toEqual({ id: 'ENGINEER01', target: './NIGHT01/' });
    expect(exportArguments(home.config(), 'night.tgz', undefined)).toEqual({ id: 'ENGINEER01', target: 'night.tgz' });
    expect(exportArguments(home.config(), 'NIGHT01', 'out/')).toEqual({ id: 'NIGHT01', target: 'out/' });
  });

  it('exports the named role with two arguments', async () => {
    const home = twoRoles();
    const { ctx, out } = capture(home);
    await runRoleExport(ctx, 'NIGHT01', `${home.root}/exports/`);
    expect(out.stdout).toMatch(/^Exported role NIGHT01 \(\d+ files\) to .*\/exports\/NIGHT01-role-export-\d{8}-\d{6}\.tar\.gz\n$/);
  });
});

describe('role import output', () => {
  it('lists each check script with "review it, then chmod +x" and notes skipped lock files', async () => {
    const home = makeTempHome();
    homes.push(home);
    const files: TarEntrySpec[] = [
      { path: 'roles/ENGINEER01.identity.md', body: SPLIT_ENGINEER_IDENTITY },
      { path: 'roles/ENGINEER01.soul.md', body: SPLIT_ENGINEER_SOUL },
      { path: 'roles/ENGINEER01.checks/run.sh', body: '#!/bin/sh\necho hi\n', mode: 0o755 },
      { path: 'memory/ENGINEER01/.memory.lock', body: '{"pid":1}' },
    ];
    const archive = writeText(home.root, 'e.tar.gz', handMadeTarGz([manifestEntryFor('ENGINEER01', files), ...files]));
    const { ctx, out } = capture(home);
    await runRoleImport(ctx, archive);
    const script = path.join(home.roleHome, 'ENGINEER01.checks/run.sh');
    expect(out.stdout).toContain(`  ${script}: review it, then \`chmod +x ${script}\` to enable`);
    expect(out.stdout).toMatch(/NOT executable/);
    expect(fs.statSync(script).mode & 0o111).toBe(0);
    expect(out.stderr).toContain('did not import memory/ENGINEER01/.memory.lock');
  });
});
