import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { LEGACY_HELPER, SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL, writeText } from '../../../../test/cli/role-test-fixtures.js';
import { resolveCurrentRole, writeActiveRoleId } from './role-active.js';
import { nextRoleId, prefixFromName } from './role-next-id.js';
import { loadAllRoles, readRoleDefinition, readRoleFileText, resolveRoleReference } from './role-repository.js';

let home: TempHome;
afterEach(() => home?.cleanup());

function withEngineerAndHelper(): TempHome {
  home = makeTempHome();
  writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
  writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
  writeText(home.roleHome, 'HELPER01.md', LEGACY_HELPER);
  return home;
}

describe('readRoleDefinition', () => {
  it('prefers the two-file format over a legacy file of the same ID', () => {
    withEngineerAndHelper();
    writeText(home.roleHome, 'ENGINEER01.md', LEGACY_HELPER.replace('HELPER01', 'ENGINEER01'));
    const role = readRoleDefinition(home.roleHome, 'ENGINEER01');
    expect(role.format).toBe('split');
    expect(role.name).toBe('小豹');
  });

  it('parses unchanged files once: each read is an equal copy of its own, and an edit is read anew', () => {
    withEngineerAndHelper();
    const first = readRoleDefinition(home.roleHome, 'ENGINEER01');
    const second = readRoleDefinition(home.roleHome, 'ENGINEER01');
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    // A caller changing its copy changes nobody else's.
    first.aliases.push('改過的別名');
    first.name = '別人';
    expect(readRoleDefinition(home.roleHome, 'ENGINEER01')).toEqual(second);
    writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL.replace(/## 氛圍[^\n]*\n/, '$&新的氛圍。\n'));
    const edited = readRoleDefinition(home.roleHome, 'ENGINEER01');
    expect(edited.vibe).toContain('新的氛圍。');
    expect(edited.vibe).not.toBe(second.vibe);
  });

  it('falls back to the legacy file', () => {
    withEngineerAndHelper();
    expect(readRoleDefinition(home.roleHome, 'HELPER01')).toMatchObject({ format: 'legacy', name: '結衣' });
  });

  it('names the missing soul file', () => {
    home = makeTempHome();
    writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
    expect(() => readRoleDefinition(home.roleHome, 'ENGINEER01')).toThrow(/ENGINEER01\.soul\.md is missing/);
  });

  it('refuses invalid IDs before touching a path', () => {
    home = makeTempHome();
    for (const bad of ['../x', 'engineer01', '..', 'ENG 01']) {
      expect(() => readRoleDefinition(home.roleHome, bad)).toThrow(expect.objectContaining({ code: 'INVALID_ID' }));
    }
  });
});

describe('loadAllRoles', () => {
  it('lists a broken role with its problem instead of failing', () => {
    withEngineerAndHelper();
    writeText(home.roleHome, 'BROKEN01.md', '---\nname: x\n---\n\nno sections\n');
    writeText(home.roleHome, 'README.md', '# not a role');
    const listing = loadAllRoles(home.roleHome);
    expect(listing.map((entry) => entry.id)).toEqual(['BROKEN01', 'ENGINEER01', 'HELPER01']);
    expect(listing[0]!.problem?.message).toMatch(/BROKEN01\.md has no ## 本質/);
  });
});

describe('resolveRoleReference', () => {
  it('finds roles by ID, display name and alias', () => {
    withEngineerAndHelper();
    expect(resolveRoleReference(home.roleHome, 'HELPER01')).toBe('HELPER01');
    expect(resolveRoleReference(home.roleHome, '結衣')).toBe('HELPER01');
    expect(resolveRoleReference(home.roleHome, 'leopard')).toBe('ENGINEER01');
    expect(resolveRoleReference(home.roleHome, 'yui')).toBe('HELPER01');
  });

  it('refuses an ambiguous name, listing the candidates', () => {
    withEngineerAndHelper();
    writeText(home.roleHome, 'HELPER02.md', LEGACY_HELPER.replace('HELPER01', 'HELPER02'));
    expect(() => resolveRoleReference(home.roleHome, '結衣')).toThrow(/HELPER01 \(結衣\), HELPER02 \(結衣\)/);
  });

  it('explains an invalid ID when nothing matches', () => {
    withEngineerAndHelper();
    expect(() => resolveRoleReference(home.roleHome, 'engineer01')).toThrow(/must be uppercase, e\.g\. ENGINEER01/);
    expect(() => resolveRoleReference(home.roleHome, '不存在')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
});

describe('nextRoleId', () => {
  it('counts file names and frontmatter ids: ENGINEER01 + ENGINEER03 (frontmatter only) → ENGINEER04', () => {
    home = makeTempHome();
    writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
    writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
    writeText(home.roleHome, 'old-engineer.md', LEGACY_HELPER.replace('id: HELPER01', 'id: ENGINEER03'));
    expect(nextRoleId(home.config().paths, 'ENGINEER')).toBe('ENGINEER04');
    expect(nextRoleId(home.config().paths, 'WRITER')).toBe('WRITER01');
  });

  it('does not hand out the ID of an archived role again', () => {
    home = makeTempHome();
    fs.mkdirSync(path.join(home.roleHome, '.archive', 'MUSE05-20250101-000000'), { recursive: true });
    expect(nextRoleId(home.config().paths, 'MUSE')).toBe('MUSE06');
  });

  it('says clearly when index 99 is used', () => {
    home = makeTempHome();
    writeText(home.roleHome, 'MUSE99.md', LEGACY_HELPER.replace('HELPER01', 'MUSE99'));
    expect(() => nextRoleId(home.config().paths, 'MUSE')).toThrow(/every index of prefix MUSE is taken/);
  });
});

describe('prefixFromName', () => {
  it('derives a prefix from ASCII names only', () => {
    expect(prefixFromName('Silica')).toBe('SILICA');
    expect(prefixFromName('Dr. Who 2')).toBe('DRWHO2');
    expect(prefixFromName('Al')).toBeUndefined();
    expect(prefixFromName('小豹')).toBeUndefined();
  });
});

describe('resolveCurrentRole', () => {
  it('uses ROLE_NAME over .active, and .active otherwise', () => {
    home = makeTempHome();
    expect(resolveCurrentRole(home.config())).toBeUndefined();
    writeActiveRoleId(home.roleHome, 'HELPER01');
    expect(resolveCurrentRole(home.config())).toEqual({ id: 'HELPER01', source: 'active' });
    expect(resolveCurrentRole(home.config({ ROLE_NAME: 'ENGINEER01' }))).toEqual({ id: 'ENGINEER01', source: 'env' });
  });

  it('refuses an invalid value, saying where it came from', () => {
    home = makeTempHome();
    expect(() => resolveCurrentRole(home.config({ ROLE_NAME: '../x' }))).toThrow(/^ROLE_NAME: /);
    writeText(home.roleHome, '.active', 'helper01\n');
    expect(() => resolveCurrentRole(home.config())).toThrow(/\.active: role ID "helper01" must be uppercase/);
  });
});

describe('readRoleFileText', () => {
  it('refuses a file that is not UTF-8, naming it', () => {
    home = makeTempHome();
    const file = writeText(home.roleHome, 'BIG5ROLE01.md', Buffer.from([0xa4, 0x70, 0xbb, 0x5c, 0xff]));
    expect(() => readRoleFileText(file)).toThrow(`${file} is not UTF-8 text`);
  });
});
