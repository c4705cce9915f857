import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, snapshotTree, type TempHome } from '../../../test/helpers/temp-home.js';
import { SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL, handMadeTarGz, writeText, type TarEntrySpec } from '../../../test/cli/role-test-fixtures.js';
import { formatCompactDateTime } from '../config/clock.js';
import { exportRole, resolveExportTarget } from './role-export.js';
import { importRole } from './role-import.js';

const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function newHome(): TempHome {
  const home = makeTempHome({ KIOKU_NOW: '2026-02-03T04:05:06+08:00' });
  homes.push(home);
  return home;
}

/** ENGINEER01 with everything an export carries, plus things it must leave behind. */
function engineerHome(): TempHome {
  const home = newHome();
  writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
  writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
  fs.chmodSync(writeText(home.roleHome, 'ENGINEER01.checks/ci.sh', '#!/bin/sh\necho ok\n'), 0o755);
  writeText(home.roleHome, '.assets/emojis/engineer01-emotions-sheet.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
  writeText(home.memoryHome, 'ENGINEER01/inbox/20260101-000000-a1b2.md', '---\nid: a\n---\n\n記住：使用者喜歡簡短回答。\n');
  writeText(home.memoryHome, 'ENGINEER01/BONDS.md', '- 使用者→角色：謝謝你\n');
  return home;
}

const manifestOnly = (files: unknown[] = []) => JSON.stringify({ format: 'kioku-role-export', version: 1, id: 'ENGINEER01', exportedAt: 'x', files });

describe('export → import', () => {
  it('round-trips every file byte for byte, with the executable bit, leaving lock and temp files behind', () => {
    const source = engineerHome();
    writeText(source.roleHome, '.assets/emojis/other01-sheet.png', 'not ours');
    const expectedRoles = snapshotTree(source.roleHome);
    delete expectedRoles['.assets/emojis/other01-sheet.png'];
    const expectedMemory = snapshotTree(source.memoryHome);
    writeText(source.memoryHome, 'ENGINEER01/.memory.lock', '{"pid":1}');
    writeText(source.memoryHome, 'ENGINEER01/inbox/.x.md.123-abcd.tmp', 'half');

    const result = exportRole(source.config(), 'ENGINEER01', `${source.root}/exports/`);
    expect(path.basename(result.archive)).toBe(`ENGINEER01-role-export-${formatCompactDateTime(new Date('2026-02-03T04:05:06+08:00'))}.tar.gz`);
    expect(result.manifest.files.map((file) => file.path).sort()).toEqual([
      'memory/ENGINEER01/BONDS.md',
      'memory/ENGINEER01/inbox/20260101-000000-a1b2.md',
      'roles/.assets/emojis/engineer01-emotions-sheet.png',
      'roles/ENGINEER01.checks/ci.sh',
      'roles/ENGINEER01.identity.md',
      'roles/ENGINEER01.soul.md',
    ]);

    const target = newHome();
    const imported = importRole(target.config(), result.archive);
    expect(imported.role).toMatchObject({ id: 'ENGINEER01', name: '小豹' });
    expect(snapshotTree(target.roleHome)).toEqual(expectedRoles);
    expect(snapshotTree(target.memoryHome)).toEqual(expectedMemory);
    expect(fs.statSync(path.join(target.roleHome, 'ENGINEER01.checks/ci.sh')).mode & 0o111).not.toBe(0);
  });

  it('never overwrites an existing archive and refuses unclear targets', () => {
    const source = engineerHome();
    const file = `${source.root}/x.tgz`;
    exportRole(source.config(), 'ENGINEER01', file);
    expect(() => exportRole(source.config(), 'ENGINEER01', file)).toThrow(expect.objectContaining({ code: 'ALREADY_EXISTS' }));
    expect(() => resolveExportTarget(`${source.root}/x.zip`, 'ENGINEER01', new Date())).toThrow(expect.objectContaining({ code: 'BAD_USAGE' }));
  });

  it('refuses to import over an existing role, writing nothing', () => {
    const source = engineerHome();
    const { archive } = exportRole(source.config(), 'ENGINEER01', `${source.root}/e.tar.gz`);
    const before = [snapshotTree(source.roleHome), snapshotTree(source.memoryHome)];
    expect(() => importRole(source.config(), archive)).toThrow(expect.objectContaining({ code: 'ALREADY_EXISTS' }));
    expect([snapshotTree(source.roleHome), snapshotTree(source.memoryHome)]).toEqual(before);
  });
});

describe('import refuses hostile or damaged archives, writing nothing', () => {
  const identity = { path: 'roles/ENGINEER01.identity.md', body: SPLIT_ENGINEER_IDENTITY };
  const soul = { path: 'roles/ENGINEER01.soul.md', body: SPLIT_ENGINEER_SOUL };
  const cases: [string, TarEntrySpec[], RegExp][] = [
    ['a ../ entry', [{ path: 'kioku-export.json', body: manifestOnly() }, identity, soul, { path: 'roles/../../evil.md', body: 'x' }], /"roles\/\.\.\/\.\.\/evil\.md" has an absolute path or a "\.\." segment/],
    ['an absolute entry', [{ path: 'kioku-export.json', body: manifestOnly() }, { path: '/tmp/evil.md', body: 'x' }], /"\/tmp\/evil\.md" has an absolute path/],
    ['a symlink entry', [{ path: 'kioku-export.json', body: manifestOnly() }, { path: 'roles/ENGINEER01.md', type: 'SymbolicLink', linkpath: '/etc/passwd' }], /"roles\/ENGINEER01\.md" is a SymbolicLink/],
    ['a hardlink entry', [{ path: 'kioku-export.json', body: manifestOnly() }, { path: 'roles/ENGINEER01.md', type: 'Link', linkpath: 'kioku-export.json' }], /is a Link/],
    ['an entry of another role', [{ path: 'kioku-export.json', body: manifestOnly() }, { path: 'memory/OTHER01/x.md', body: 'x' }], /"memory\/OTHER01\/x\.md" is outside/],
    ['no manifest', [identity, soul], /no kioku-export\.json manifest/],
    ['a file that does not match its checksum', [{ path: 'kioku-export.json', body: manifestOnly([{ path: identity.path, sha256: '0'.repeat(64), size: 1 }, { path: soul.path, sha256: '0'.repeat(64), size: 1 }]) }, identity, soul], /does not match its manifest checksum/],
  ];

  it.each(cases)('%s', (_name, entries, message) => {
    const home = newHome();
    const archive = path.join(home.root, 'evil.tar.gz');
    fs.writeFileSync(archive, handMadeTarGz(entries));
    expect(() => importRole(home.config(), archive)).toThrow(message);
    expect(snapshotTree(home.roleHome)).toEqual({});
    expect(snapshotTree(home.memoryHome)).toEqual({});
    expect(fs.existsSync(path.join(home.root, 'evil.md'))).toBe(false);
  });

  it('names a file that is not gzip, and a truncated one', () => {
    const home = newHome();
    const notGzip = writeText(home.root, 'notes.tar.gz', 'plain text');
    expect(() => importRole(home.config(), notGzip)).toThrow(`${notGzip}: not a gzip file`);
    const truncated = writeText(home.root, 'cut.tar.gz', handMadeTarGz([identity, soul]).subarray(0, 30));
    expect(() => importRole(home.config(), truncated)).toThrow(`${truncated}: corrupt or truncated archive`);
    expect(snapshotTree(home.roleHome)).toEqual({});
  });
});
