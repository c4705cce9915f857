import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, snapshotTree, type TempHome } from '../../../../test/helpers/temp-home.js';
import { SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL, writeText } from '../../../../test/cli/role-test-fixtures.js';
import { formatCompactDateTime } from '../../platform/config/clock.js';
import {
  legacyParsedMemoriesPath,
  parsedMemoriesPath,
  preparedLoadPath,
  preparedStampsPath,
} from '../../platform/config/prepared-paths.js';
import { archiveRole } from './role-archive.js';
import { listArchivedRoles, purgeArchivedRole, restoreArchivedRole } from './role-archived.js';

let home: TempHome;
const NOW = '2026-02-03T04:05:06+08:00';
// Archive folders are named in local time; the expectation follows whatever TZ the tests run in.
const folder = `ENGINEER01-${formatCompactDateTime(new Date(NOW))}`;
afterEach(() => home?.cleanup());

function withEngineer(): void {
  home = makeTempHome({ KIOKU_NOW: NOW });
  writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
  writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
  writeText(home.roleHome, 'ENGINEER01.checks/ci.sh', 'echo ok\n');
  writeText(home.roleHome, '.assets/emojis/engineer01-emotions-sheet.png', 'png');
  writeText(home.memoryHome, 'ENGINEER01/inbox/a.md', 'memory');
}

describe('archived roles', () => {
  it('lists an archive with the name read from its files, and restores every file byte for byte', () => {
    withEngineer();
    const before = { roles: snapshotTree(home.roleHome), memory: snapshotTree(home.memoryHome) };
    archiveRole(home.config(), 'ENGINEER01');
    const [entry, ...rest] = listArchivedRoles(home.config());
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ folder, id: 'ENGINEER01', idInUse: false });
    expect(entry!.name).not.toBe('ENGINEER01');
    expect(entry!.memoryArchiveDir).toBe(path.join(home.memoryHome, '.archive', folder));

    const restored = restoreArchivedRole(home.config(), 'ENGINEER01');
    expect(restored.id).toBe('ENGINEER01');
    expect(snapshotTree(home.roleHome)).toEqual(before.roles);
    expect(snapshotTree(home.memoryHome)).toEqual(before.memory);
    expect(fs.readdirSync(path.join(home.roleHome, '.archive'))).toEqual([]);
    expect(listArchivedRoles(home.config())).toEqual([]);
  });

  it("removes the role's derived loads (prepared load, its stamps, parsed memories), no other role's, and keeps its memory", () => {
    withEngineer();
    const { paths } = home.config();
    const derived = (id: string) => [
      preparedLoadPath(paths, id),
      preparedStampsPath(paths, id),
      parsedMemoriesPath(paths, id, 'inbox'),
      parsedMemoriesPath(paths, id, 'important'),
      legacyParsedMemoriesPath(paths, id),
    ];
    for (const file of [...derived('ENGINEER01'), ...derived('OTHERS01')]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '記憶的副本');
    }
    archiveRole(home.config(), 'ENGINEER01');
    expect(derived('ENGINEER01').filter((file) => fs.existsSync(file))).toEqual([]);
    expect(derived('OTHERS01').filter((file) => fs.existsSync(file))).toEqual(derived('OTHERS01'));
    expect(fs.readFileSync(path.join(home.memoryHome, '.archive', folder, 'inbox', 'a.md'), 'utf8')).toBe('memory');
  });

  it('refuses to restore over a live role with that ID, moving nothing', () => {
    withEngineer();
    archiveRole(home.config(), 'ENGINEER01');
    writeText(home.roleHome, 'ENGINEER01.md', '---\nname: 新的\n---\n');
    const before = snapshotTree(home.root);
    expect(listArchivedRoles(home.config())[0]!.idInUse).toBe(true);
    expect(() => restoreArchivedRole(home.config(), folder)).toThrow(/a role ENGINEER01 exists/);
    expect(snapshotTree(home.root)).toEqual(before);
  });

  it('refuses to restore when a target file is taken, moving nothing', () => {
    withEngineer();
    archiveRole(home.config(), 'ENGINEER01');
    writeText(home.roleHome, '.assets/emojis/engineer01-emotions-sheet.png', 'someone else');
    const before = snapshotTree(home.root);
    expect(() => restoreArchivedRole(home.config(), 'ENGINEER01')).toThrow(/would overwrite .*engineer01-emotions-sheet\.png/);
    expect(snapshotTree(home.root)).toEqual(before);
  });

  it('deletes an archive for good only when the typed ID is the role ID', () => {
    withEngineer();
    archiveRole(home.config(), 'ENGINEER01');
    const before = snapshotTree(home.root);
    expect(() => purgeArchivedRole(home.config(), folder, 'ENGINEER02')).toThrow(/nothing was deleted/);
    expect(() => purgeArchivedRole(home.config(), folder, '')).toThrow(/nothing was deleted/);
    expect(snapshotTree(home.root)).toEqual(before);
    expect(purgeArchivedRole(home.config(), folder, 'ENGINEER01').removed).toHaveLength(2);
    expect(fs.existsSync(path.join(home.roleHome, '.archive', folder))).toBe(false);
    expect(fs.existsSync(path.join(home.memoryHome, '.archive', folder))).toBe(false);
    expect(listArchivedRoles(home.config())).toEqual([]);
  });

  it('names the role when there is no archive of it', () => {
    withEngineer();
    expect(() => restoreArchivedRole(home.config(), 'MUSE01')).toThrow(/no archived role MUSE01/);
  });
});
