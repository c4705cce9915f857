import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { explainInvalidRoleId } from '../../common/role-id.js';
import { runKioku, runKiokuJson } from '../helpers/run-cli.js';
import { makeTempHome, snapshotTree, type TempHome } from '../helpers/temp-home.js';
import { LEGACY_HELPER, SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL, handMadeTarGz, writeText } from './role-test-fixtures.js';

// These run the built CLI (`npm run build` first; `npm test` does it in pretest).
const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function newHome(): TempHome {
  const home = makeTempHome({ KIOKU_NOW: '2026-02-03T04:05:06+08:00' });
  homes.push(home);
  return home;
}

/** ENGINEER01 (two files, active) and HELPER01 (legacy), with a memory each. */
function populatedHome(): TempHome {
  const home = newHome();
  writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
  writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
  writeText(home.roleHome, 'HELPER01.md', LEGACY_HELPER);
  writeText(home.roleHome, '.active', 'ENGINEER01\n');
  writeText(home.memoryHome, 'ENGINEER01/inbox/20260101-000000-a1b2.md', '---\nid: a\ncategory: inbox\n---\n\n記住這件事。\n');
  writeText(home.memoryHome, 'ENGINEER01/skill/20260101-000001-c3d4.md', '---\nid: b\ncategory: skill\n---\n\nvitest 用法。\n');
  return home;
}

const newArgs = ['--name', '小豹', '--nature', '冷靜', '--vibe', '直白', '--emoji', '🐆'];

describe('role IDs and path tricks are refused before any file is touched (ROLE-3)', () => {
  const badIds = ['../x', 'engineer01', 'ENGINEER-01', 'ENG 01', '工程師01', '/tmp/X01', '..'];

  it.each(badIds)('%s', (bad) => {
    const home = populatedHome();
    const before = snapshotTree(home.root);
    const explanation = explainInvalidRoleId(bad)!;
    const attempts: [string[], number[]][] = [
      [['role', 'new', '--id', bad, ...newArgs], [2]],
      [['role', 'delete', bad], [2]],
      [['role', 'export', bad, path.join(home.root, 'out.tar.gz')], [2]],
      [['role', 'migrate', bad], [2]],
      // use/show also take display names, so a CJK text that names no role is "not found" (1).
      [['role', 'use', bad], /[^\x20-\x7e]/.test(bad) ? [1] : [2]],
      [['role', 'show', bad], /[^\x20-\x7e]/.test(bad) ? [1] : [2]],
    ];
    for (const [args, codes] of attempts) {
      const result = runKioku(args, home.env);
      expect(codes, `${args.join(' ')} → ${result.code}: ${result.stderr}`).toContain(result.code);
      expect(result.stderr).toContain(explanation);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(snapshotTree(home.root)).toEqual(before);
  });
});

describe('role new', () => {
  it('takes the next index after file names and frontmatter ids (ENGINEER01 + ENGINEER03 → ENGINEER04)', () => {
    const home = newHome();
    writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
    writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
    writeText(home.roleHome, 'old-engineer.md', LEGACY_HELPER.replace('id: HELPER01', 'id: ENGINEER03'));
    const created = runKiokuJson<{ id: string; memoryDir: string; active: boolean }>(
      ['role', 'new', ...newArgs, '--name', '阿豹', '--prefix', 'ENGINEER'],
      home.env,
    );
    expect(created).toMatchObject({ id: 'ENGINEER04', active: true, memoryDir: path.join(home.memoryHome, 'ENGINEER04') });
    expect(fs.existsSync(path.join(home.roleHome, 'ENGINEER04.identity.md'))).toBe(true);
    expect(fs.readFileSync(path.join(home.roleHome, '.active'), 'utf8')).toBe('ENGINEER04\n');
  });

  it('prints what it created and reminds to start a new session', () => {
    const home = newHome();
    const result = runKioku(['role', 'new', '--name', 'Silica', '--nature', '劍士', '--vibe', '活潑', '--emoji', '🗡️'], home.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Created role Silica 🗡️ (SILICA01)');
    expect(result.stdout).toContain(path.join(home.memoryHome, 'SILICA01'));
    expect(result.stdout).toMatch(/new assistant session/);
  });

  it('exits 2 listing what is missing, and asks for --prefix for a CJK-only name', () => {
    const home = newHome();
    const missing = runKioku(['role', 'new', '--name', 'Silica', '--emoji', '🗡️'], home.env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('a new role needs --nature, --vibe');
    const cjk = runKioku(['role', 'new', ...newArgs], home.env);
    expect(cjk.code).toBe(2);
    expect(cjk.stderr).toMatch(/--prefix ENGINEER/);
    expect(snapshotTree(home.root)).toEqual({});
  });
});

describe('role new on an existing role: confirm before overwrite (ROLE-5)', () => {
  const tokenOf = (stdout: string) => /--confirm ([0-9a-f]+)/.exec(stdout)?.[1];

  it('shows the table and a token, exits 3 and writes nothing; a wrong token is refused; the right one applies exactly that change', () => {
    const home = populatedHome();
    const before = snapshotTree(home.root);
    const oldRole = runKiokuJson<Record<string, unknown>>(['role', 'show', 'ENGINEER01'], home.env);

    const asked = runKioku(['role', 'new', '--name', '小豹', '--vibe', '更直白，愛吐槽'], home.env);
    expect(asked.code).toBe(3);
    expect(asked.stdout).toMatch(/vibe\s+簡潔直白、偶爾吐槽。\s+更直白，愛吐槽\s+yes/);
    expect(asked.stdout).toMatch(/nature\s+冷靜可靠.*\s+no/);
    const token = tokenOf(asked.stdout)!;
    expect(token).toBeTruthy();
    expect(snapshotTree(home.root)).toEqual(before);

    const wrong = runKioku(['role', 'new', '--name', '小豹', '--vibe', '更直白，愛吐槽', '--confirm', '0000000000'], home.env);
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/does not match/);
    expect(tokenOf(wrong.stdout)).toBe(token);
    const otherFlags = runKioku(['role', 'new', '--name', '小豹', '--vibe', '別的', '--confirm', token], home.env);
    expect(otherFlags.code).toBe(3);
    expect(snapshotTree(home.root)).toEqual(before);

    const applied = runKioku(['role', 'new', '--name', '小豹', '--vibe', '更直白，愛吐槽', '--confirm', token], home.env);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Updated role 小豹 (ENGINEER01): vibe');
    const newRole = runKiokuJson<Record<string, unknown>>(['role', 'show', 'ENGINEER01'], home.env);
    expect(newRole).toEqual({ ...oldRole, vibe: '更直白，愛吐槽', updated: newRole.updated });
  });

  it('--json prints one document with confirmNeeded, token and changes', () => {
    const home = populatedHome();
    const result = runKioku(['role', 'new', '--id', 'HELPER01', '--emoji', '🌷', '--json'], home.env);
    expect(result.code).toBe(3);
    const doc = JSON.parse(result.stdout) as { confirmNeeded: boolean; token: string; changes: { field: string; changed: boolean }[] };
    expect(doc.confirmNeeded).toBe(true);
    expect(doc.token).toMatch(/^[0-9a-f]{10}$/);
    expect(doc.changes.filter((change) => change.changed).map((change) => change.field)).toEqual(['emoji']);
    const applied = runKioku(['role', 'new', '--id', 'HELPER01', '--emoji', '🌷', '--confirm', doc.token], home.env);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/HELPER01\.md was left as it was/);
    expect(fs.readFileSync(path.join(home.roleHome, 'HELPER01.md'), 'utf8')).toBe(LEGACY_HELPER);
  });
});

describe('role list / show', () => {
  it('list --json has the contract fields, marks the active role and counts memories', () => {
    const home = populatedHome();
    const roles = runKiokuJson<Record<string, unknown>[]>(['role', 'list'], home.env);
    expect(roles).toEqual([
      expect.objectContaining({
        id: 'ENGINEER01',
        name: '小豹',
        emoji: '🐆',
        active: true,
        memoryCount: 2,
        natureFirstLine: '冷靜可靠的資深工程師，重證據、不打包票。',
        format: 'split',
      }),
      expect.objectContaining({ id: 'HELPER01', name: '結衣', emoji: '🌸', active: false, memoryCount: 0, format: 'legacy' }),
    ]);
  });

  it('lists an unreadable role with a note on stderr instead of failing', () => {
    const home = populatedHome();
    writeText(home.roleHome, 'BROKEN01.md', '---\nname: 壞掉\n---\n\n沒有章節\n');
    const result = runKioku(['role', 'list'], home.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/BROKEN01\s+\(unreadable\)/);
    expect(result.stdout).toMatch(/ENGINEER01\s+小豹\s+🐆/);
    expect(result.stderr).toMatch(/role BROKEN01 cannot be read: .*BROKEN01\.md has no ## 本質/);
  });

  it('show --json by display name has the CLI.md shape', () => {
    const home = populatedHome();
    const role = runKiokuJson<Record<string, unknown>>(['role', 'show', '結衣'], home.env);
    expect(role).toMatchObject({
      id: 'HELPER01',
      name: '結衣',
      emoji: '🌸',
      aliases: ['ゆい', 'Yui'],
      format: 'legacy',
      vibe: '語氣溫暖、句子短。',
      sections: [{ heading: '核心信念', body: '家人最重要。', origin: 'soul' }],
    });
    expect(role.nature).toBe('溫柔體貼的 AI，擅長整理資訊。\n遇到不確定時會先問。');
  });
});

describe('role use / delete (ROLE-8)', () => {
  it('use switches .active by display name and says old → new', () => {
    const home = populatedHome();
    const result = runKioku(['role', 'use', '結衣'], home.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('小豹 (ENGINEER01) → 結衣 🌸 (HELPER01)');
    expect(fs.readFileSync(path.join(home.roleHome, '.active'), 'utf8')).toBe('HELPER01\n');
  });

  it('delete refuses the active role, then archives the other one without destroying anything', () => {
    const home = populatedHome();
    const before = snapshotTree(home.root);
    const refused = runKioku(['role', 'delete', 'ENGINEER01'], home.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/kioku role use/);
    expect(snapshotTree(home.root)).toEqual(before);

    expect(runKioku(['role', 'use', 'HELPER01'], home.env).code).toBe(0);
    const deleted = runKioku(['role', 'delete', 'ENGINEER01'], home.env);
    expect(deleted.code).toBe(0);
    const archivedRoles = fs.readdirSync(path.join(home.roleHome, '.archive'));
    expect(archivedRoles).toHaveLength(1);
    expect(fs.readdirSync(path.join(home.roleHome, '.archive', archivedRoles[0]!)).sort()).toEqual([
      'ENGINEER01.identity.md',
      'ENGINEER01.soul.md',
    ]);
    const after = snapshotTree(home.root);
    const contents = (tree: Record<string, string>) => Object.values(tree).sort();
    // Every byte that was there is still there (one more file: .active now names HELPER01).
    expect(contents(after)).toEqual(
      expect.arrayContaining(contents(before).filter((content) => content !== Buffer.from('ENGINEER01\n').toString('base64'))),
    );
    expect(fs.existsSync(path.join(home.memoryHome, 'ENGINEER01'))).toBe(false);
    expect(deleted.stdout).toContain(path.join(home.memoryHome, '.archive'));
  });
});

describe('role export / import (ROLE-9)', () => {
  it('round-trips into a clean pair of homes byte for byte', () => {
    const source = populatedHome();
    writeText(source.roleHome, '.assets/emojis/engineer01-emotions-sheet.png', Buffer.from([1, 2, 3]));
    const exported = runKioku(['role', 'export', `${source.root}/exports/`], source.env);
    expect(exported.code).toBe(0);
    const archive = /to (\S+\.tar\.gz)/.exec(exported.stdout)![1]!;
    expect(path.basename(archive)).toMatch(/^ENGINEER01-role-export-\d{8}-\d{6}\.tar\.gz$/);

    const target = newHome();
    const imported = runKioku(['role', 'import', archive], target.env);
    expect(imported.code).toBe(0);
    const pick = (tree: Record<string, string>, test: (key: string) => boolean) =>
      Object.fromEntries(Object.entries(tree).filter(([key]) => test(key)));
    expect(snapshotTree(target.roleHome)).toEqual(
      pick(snapshotTree(source.roleHome), (key) => key.startsWith('ENGINEER01.') || key.startsWith('.assets/')),
    );
    expect(snapshotTree(target.memoryHome)).toEqual(snapshotTree(source.memoryHome));

    const again = runKioku(['role', 'import', archive], target.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists[\s\S]*kioku role delete ENGINEER01/);
  });

  it('refuses an archive with a ../ entry, writing nothing', () => {
    const home = newHome();
    const archive = path.join(home.root, 'evil.tar.gz');
    fs.writeFileSync(
      archive,
      handMadeTarGz([
        { path: 'kioku-export.json', body: '{}' },
        { path: '../escaped.md', body: 'x' },
      ]),
    );
    const result = runKioku(['role', 'import', archive], home.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"../escaped.md"');
    expect(snapshotTree(home.roleHome)).toEqual({});
    expect(snapshotTree(home.memoryHome)).toEqual({});
    expect(fs.existsSync(path.join(home.root, '..', 'escaped.md'))).toBe(false);
  });

  it('explains the two target forms for anything else', () => {
    const home = populatedHome();
    const result = runKioku(['role', 'export', 'ENGINEER01', path.join(home.root, 'backup.zip')], home.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/\.tar\.gz or \.tgz/);
  });
});

describe('role migrate (ROLE-2)', () => {
  it('--dry-run prints both files and writes nothing; the real run splits and leaves the legacy file', () => {
    const home = populatedHome();
    const before = snapshotTree(home.root);
    const dry = runKioku(['role', 'migrate', 'HELPER01', '--dry-run'], home.env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`--- ${path.join(home.roleHome, 'HELPER01.soul.md')} (would be written)`);
    expect(dry.stdout).toContain('## 本質（nature）');
    expect(snapshotTree(home.root)).toEqual(before);

    expect(runKioku(['role', 'migrate', 'HELPER01'], home.env).code).toBe(0);
    expect(fs.readFileSync(path.join(home.roleHome, 'HELPER01.md'), 'utf8')).toBe(LEGACY_HELPER);
    expect(runKiokuJson<{ format: string }>(['role', 'show', 'HELPER01'], home.env).format).toBe('split');
    const again = runKioku(['role', 'migrate', 'HELPER01'], home.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exist/);
  });
});

describe('seed-era role IDs (seed 000 §--export uses YUI01)', () => {
  it('a legacy YUI01 written by the original scripts lists, shows and can be used; a new YUI02 is refused', () => {
    const home = populatedHome();
    writeText(home.roleHome, 'YUI01.md', LEGACY_HELPER.replace('id: HELPER01', 'id: YUI01'));
    const roles = runKiokuJson<{ id: string }[]>(['role', 'list'], home.env);
    expect(roles.map((r) => r.id)).toContain('YUI01');
    expect(runKiokuJson<{ id: string }>(['role', 'show', 'YUI01'], home.env).id).toBe('YUI01');
    expect(runKioku(['role', 'use', 'YUI01'], home.env).code).toBe(0);

    const before = snapshotTree(home.root);
    const created = runKioku(['role', 'new', '--id', 'YUI02', ...newArgs], home.env);
    expect(created.code).toBe(2);
    expect(created.stderr).toMatch(/too short for a new role/);
    expect(snapshotTree(home.root)).toEqual(before);
  });
});
