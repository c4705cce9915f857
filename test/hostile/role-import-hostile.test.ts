import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SPLIT_ENGINEER_IDENTITY,
  SPLIT_ENGINEER_SOUL,
  handMadeTarGz,
  manifestEntryFor,
  writeText,
  type TarEntrySpec,
} from '../cli/role-test-fixtures.js';
import { makeTempHome, snapshotTree, type TempHome } from '../helpers/temp-home.js';
import { billionLaughs, runKiokuChild } from './hostile-kit.js';

/**
 * Issue 14 through `kioku role import`: the memory files inside an archive were never parsed when
 * it was vetted, so an alias bomb arrived with a valid manifest and checksums; imported files were
 * 0644 while Kioku's own are 0600; and an identity naming another ID was imported without a word.
 */
const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function newHome(): TempHome {
  const home = makeTempHome({ KIOKU_NOW: '2026-03-10T14:00:00+08:00' });
  homes.push(home);
  return home;
}

const identity: TarEntrySpec = { path: 'roles/ENGINEER01.identity.md', body: SPLIT_ENGINEER_IDENTITY };
const soul: TarEntrySpec = { path: 'roles/ENGINEER01.soul.md', body: SPLIT_ENGINEER_SOUL };
const coffee: TarEntrySpec = {
  path: 'memory/ENGINEER01/daily/20260301-090000-c0ff.md',
  body: '---\nid: 20260301-090000-c0ff\nsummary: 老大喝黑咖啡 R&D *重要*\n---\n不加糖。\n',
};

function archiveOf(home: TempHome, name: string, files: TarEntrySpec[]): string {
  return writeText(home.root, name, handMadeTarGz([manifestEntryFor('ENGINEER01', files), ...files]));
}

describe('kioku role import with hostile contents', () => {
  it('refuses an archive carrying a YAML alias bomb, naming the file; both homes stay empty', async () => {
    const home = newHome();
    const bombPath = 'memory/ENGINEER01/daily/20260301-100000-b0b0.md';
    const archive = archiveOf(home, 'bomb.tar.gz', [
      identity,
      soul,
      coffee,
      { path: bombPath, body: billionLaughs('20260301-100000-b0b0') },
    ]);
    const run = await runKiokuChild(['role', 'import', archive], home.env);
    expect(run.signal).toBeNull();
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`kioku: ${archive}: "${bombPath}" cannot be loaded: its front matter uses a YAML anchor`);
    expect(run.stderr).toContain('nothing was imported');
    expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(snapshotTree(home.roleHome)).toEqual({});
    expect(snapshotTree(home.memoryHome)).toEqual({});
  });

  it("writes what it imports 0600 and its folders 0700, like Kioku's own files", async () => {
    const home = newHome();
    const archive = archiveOf(home, 'ok.tar.gz', [identity, soul, coffee]);
    const run = await runKiokuChild(['role', 'import', archive], home.env);
    expect(run.code, run.stderr).toBe(0);
    for (const file of [
      path.join(home.roleHome, 'ENGINEER01.identity.md'),
      path.join(home.roleHome, 'ENGINEER01.soul.md'),
      path.join(home.memoryHome, 'ENGINEER01/daily/20260301-090000-c0ff.md'),
    ]) {
      expect((fs.statSync(file).mode & 0o777).toString(8), file).toBe('600');
    }
    expect((fs.statSync(path.join(home.memoryHome, 'ENGINEER01/daily')).mode & 0o777).toString(8)).toBe('700');
    // & and * inside values are text: the memory loads and is found.
    const recall = await runKiokuChild(['memory', 'recall', '--role', 'ENGINEER01', '--query', '黑咖啡'], home.env);
    expect(recall.stdout).toContain('老大喝黑咖啡 R&D *重要*');
  });

  it("warns when the identity names another ID than the archive, and imports under the archive's", async () => {
    const home = newHome();
    const renamed = { ...identity, body: SPLIT_ENGINEER_IDENTITY.replace(/^id: ENGINEER01$/m, 'id: NIGHT01') };
    const archive = archiveOf(home, 'renamed.tar.gz', [renamed, soul]);
    const run = await runKiokuChild(['role', 'import', archive], home.env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /kioku: warning: the role definition roles\/ENGINEER01\.identity\.md says id "NIGHT01", but the archive .* is role ENGINEER01; it was imported as ENGINEER01/,
    );
    expect(run.stdout).toContain('(ENGINEER01)');
  });
});
