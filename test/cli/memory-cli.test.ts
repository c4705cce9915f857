import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySeed000Fixture, fingerprints, SEED000_ROLE, writeMemoryFixture } from '../helpers/memory-fixtures.js';
import { runKioku, runKiokuJson } from '../helpers/run-cli.js';
import { makeTempHome, snapshotTree, type TempHome } from '../helpers/temp-home.js';

/** `kioku memory …` as scripts see it (CLI.md). Needs `node scripts/build.mjs` first (npm test does it). */
const ROLE = 'TESTER01';
let home: TempHome;
beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T12:00:00+08:00' });
  fs.writeFileSync(path.join(home.roleHome, `${ROLE}.identity.md`), `---\nid: ${ROLE}\nname: 測試\nemoji: 🧪\n---\n\n# 測試\n`);
  fs.writeFileSync(path.join(home.roleHome, '.active'), `${ROLE}\n`);
});
afterEach(() => home.cleanup());

const memoryFiles = (role: string, category: string) => {
  const dir = path.join(home.memoryHome, role, category);
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
};

describe('memory remember / seed', () => {
  it('remember writes silently, redacted and in Traditional Chinese, for the active role', () => {
    const result = runKioku(
      ['memory', 'remember', '--text', '记住：我的邮箱是 me@example.com，后来改用 0912-345-678', '--tags', '联络,邮箱'],
      home.env,
    );
    expect(result).toMatchObject({ code: 0, stdout: '' });
    const [file] = memoryFiles(ROLE, 'inbox');
    const text = fs.readFileSync(file!, 'utf8');
    expect(text).toContain('記住：我的郵箱是 [REDACTED:email]，後來改用 [REDACTED:phone]');
    expect(text).toContain('tags: [聯絡, 郵箱]');
    expect(text).toContain('relevance: [explicit]');
    expect(text).toContain('priority: 4');
    expect(text).not.toContain('me@example.com');
  });

  it('remember --json answers with the new memory; a lone ambiguous character is warned about on stderr', () => {
    const result = runKioku(['memory', 'remember', '--text', '这个发', '--category', 'daily', '--priority', '2', '--json'], home.env);
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer).toMatchObject({ category: 'daily', path: path.join(home.memoryHome, ROLE, 'daily', `${answer.id}.md`) });
    expect(result.stderr).toMatch(/kioku: warning: body: kept "发"/);
  });

  it('seed takes the body on stdin and stores the source', () => {
    const result = runKioku(
      ['memory', 'seed', '--category', 'news', '--summary', '角色背景', '--tags', '背景', '--source', 'https://example.com/wiki', '--json'],
      home.env,
      '她来自一部动画。\n',
    );
    expect(result.code).toBe(0);
    const text = fs.readFileSync(JSON.parse(result.stdout).path, 'utf8');
    expect(text).toContain('sleep_stage: seed');
    expect(text).toContain('retention_stage: long_term');
    expect(text).toContain('source: "https://example.com/wiki"');
    expect(text).toContain('她來自一部動畫。\n\n來源：https://example.com/wiki');
  });

  it('bad values exit 2 and name the value', () => {
    const result = runKioku(['memory', 'remember', '--text', 'x', '--category', 'misc'], home.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/category "misc" is not one of/);
  });
});

describe('memory stats', () => {
  it('counts seed-000 files without modifying them, and names a corrupt file on stderr', () => {
    const roleDir = copySeed000Fixture(home.memoryHome);
    fs.writeFileSync(path.join(roleDir, 'daily', 'broken.md'), Buffer.from([0x00, 0x01, 0x02]));
    const before = fingerprints(roleDir);
    const result = runKioku(['memory', 'stats', '--role', SEED000_ROLE, '--json'], home.env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      role: SEED000_ROLE,
      categories: { inbox: 1, important: 1, interest: 1, news: 0, skill: 1, daily: 1, other: 1 },
      types: { emotional: 0, preference: 1, episodic: 3 },
      total: 6,
      problems: [{ path: path.join(roleDir, 'daily', 'broken.md') }],
    });
    expect(result.stderr).toContain(`cannot read ${path.join(roleDir, 'daily', 'broken.md')}`);
    expect(fingerprints(roleDir)).toEqual(before);
  });

  it('without any role exits 2 with both ways out in the hint', () => {
    fs.rmSync(path.join(home.roleHome, '.active'));
    const result = runKioku(['memory', 'stats'], home.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--role ID/);
    expect(result.stderr).toMatch(/kioku role use ID/);
  });

  it('ROLE_NAME wins over .active', () => {
    copySeed000Fixture(home.memoryHome);
    expect(runKiokuJson<{ role: string; total: number }>(['memory', 'stats'], { ...home.env, ROLE_NAME: SEED000_ROLE })).toMatchObject({
      role: SEED000_ROLE,
      total: 6,
    });
  });
});

describe('memory forget', () => {
  it('--dry-run lists, the real run archives, following KIOKU_NOW', () => {
    const old = writeMemoryFixture(home.memoryHome, ROLE, 'daily', 'old-chore', {
      summary: '舊雜事',
      priority: 1,
      memory_type: 'semantic',
      updated: '2026-11-01T12:00:00+08:00',
    });
    writeMemoryFixture(home.memoryHome, ROLE, 'daily', 'new-chore', {
      summary: '新雜事',
      priority: 1,
      memory_type: 'semantic',
      updated: '2026-11-20T12:00:00+08:00',
    });
    const original = fs.readFileSync(old);
    const before = snapshotTree(home.memoryHome);
    const preview = runKiokuJson<{ dryRun: boolean; forgotten: { id: string; category: string; path: string }[] }>(
      ['memory', 'forget', '--dry-run'],
      home.env,
    );
    expect(preview).toMatchObject({ role: ROLE, dryRun: true, forgotten: [{ id: 'old-chore', category: 'daily', path: old }] });
    expect(snapshotTree(home.memoryHome)).toEqual(before);
    const done = runKiokuJson<{ forgotten: { archive: string }[] }>(['memory', 'forget'], home.env);
    expect(fs.existsSync(old)).toBe(false);
    expect(zlib.gunzipSync(fs.readFileSync(done.forgotten[0]!.archive)).equals(original)).toBe(true);
    const later = runKiokuJson<{ forgotten: unknown[] }>(['memory', 'forget'], { ...home.env, KIOKU_NOW: '2026-12-05T12:00:00+08:00' });
    expect(later.forgotten).toHaveLength(1);
  });
});

describe('memory bonds / consent / probe / migrate', () => {
  it('bonds shows the newest first and honours --count', () => {
    const file = path.join(home.memoryHome, ROLE, 'BONDS.md');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      '# 關係史\n\n- 2026-11-01 10:00 [使用者→角色] 第一句\n- 2026-11-02 10:00 [相互] 第二句\n- 2026-11-03 10:00 [角色→使用者] 第三句\n',
    );
    const result = runKioku(['memory', 'bonds', '--count', '2'], home.env);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual(['2026-11-03 10:00  角色→使用者  第三句', '2026-11-02 10:00  相互  第二句']);
    expect(runKioku(['memory', 'bonds', '--count', 'many'], home.env).code).toBe(2);
  });

  it('consent writes state.json and refuses other values', () => {
    expect(runKioku(['memory', 'consent', '--value', 'accepted'], home.env).code).toBe(0);
    const state = JSON.parse(fs.readFileSync(path.join(home.memoryHome, ROLE, 'state.json'), 'utf8'));
    expect(state.personal_memory_consent).toBe('accepted');
    const refused = runKioku(['memory', 'consent', '--value', 'maybe'], home.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/"maybe" is not one of accepted, declined, unknown/);
  });

  it('probe add, deny and audit', () => {
    copySeed000Fixture(home.memoryHome);
    const env = { ...home.env, ROLE_NAME: SEED000_ROLE };
    expect(runKioku(['memory', 'probe', 'add', '--id', '20261120-200000-77aa', '--question', '妳在學俳句嗎？'], env).code).toBe(0);
    expect(runKioku(['memory', 'probe', 'deny', '--id', '20261120-200000-77aa', '--note', '是短歌'], env).code).toBe(0);
    expect(runKiokuJson(['memory', 'probe', 'audit'], env)).toMatchObject({
      counts: { pending: 0, confirmed: 0, denied: 1 },
      needsCorrection: [{ id: '20261120-200000-77aa' }],
    });
    expect(runKioku(['memory', 'probe', 'confirm'], env).code).toBe(2);
  });

  it('migrate --all: dry run, real run, then nothing left to do', () => {
    copySeed000Fixture(home.memoryHome);
    const dry = runKiokuJson<{ roles: { role: string; changed: number; paths?: unknown }[] }>(
      ['memory', 'migrate', '--all', '--dry-run'],
      home.env,
    );
    expect(dry.roles).toEqual([{ role: SEED000_ROLE, files: 6, changed: 6 }]);
    expect(runKioku(['memory', 'migrate', '--all'], home.env).stdout).toContain(`${SEED000_ROLE}: migrated 6 of 6 files`);
    expect(runKiokuJson(['memory', 'migrate', '--all'], home.env)).toMatchObject({ roles: [{ role: SEED000_ROLE, changed: 0 }] });
  });
});
