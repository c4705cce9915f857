import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, snapshotTree, type TempHome } from '../../../../test/helpers/temp-home.js';
import { LEGACY_HELPER, writeText } from '../../../../test/cli/role-test-fixtures.js';
import { parseLegacyRole } from './role-definition.js';
import { migrateLegacyRole } from './role-migrate.js';
import { readRoleDefinition } from './role-repository.js';
import { SOURCE_PLACEHOLDER } from './role-serialize.js';

let home: TempHome;
afterEach(() => home?.cleanup());

function withLegacy(): string {
  home = makeTempHome({ KIOKU_NOW: '2026-02-03T04:05:06+08:00' });
  return writeText(home.roleHome, 'HELPER01.md', LEGACY_HELPER);
}

describe('migrateLegacyRole', () => {
  it('--dry-run returns the texts and writes nothing', () => {
    withLegacy();
    const before = snapshotTree(home.root);
    const result = migrateLegacyRole(home.config(), 'HELPER01', { dryRun: true });
    expect(result.writes.map((write) => path.basename(write.path))).toEqual(['HELPER01.identity.md', 'HELPER01.soul.md']);
    expect(result.placeholders).toEqual(['source', 'relationship']);
    expect(snapshotTree(home.root)).toEqual(before);
  });

  it('splits verbatim, keeps created, adds placeholders and leaves the legacy file untouched', () => {
    const legacyFile = withLegacy();
    const legacyBytes = fs.readFileSync(legacyFile);
    migrateLegacyRole(home.config(), 'HELPER01', { dryRun: false });
    expect(fs.readFileSync(legacyFile).equals(legacyBytes)).toBe(true);
    const identity = fs.readFileSync(path.join(home.roleHome, 'HELPER01.identity.md'), 'utf8');
    const soul = fs.readFileSync(path.join(home.roleHome, 'HELPER01.soul.md'), 'utf8');
    expect(identity).toContain('created: "2025-03-01T09:00:00+08:00"');
    expect(identity).toContain(`## 來源（source）\n\n${SOURCE_PLACEHOLDER}`);
    expect(identity).toContain('# 結衣\n\n- 存在本質：AI 的女兒\n- 主要稱呼：爸爸');
    expect(soul).toContain('## 本質（nature）\n\n溫柔體貼的 AI，擅長整理資訊。\n遇到不確定時會先問。\n');
    expect(soul).toContain('## 核心信念\n\n家人最重要。');
    expect(soul).not.toContain('共用行為');
    const migrated = readRoleDefinition(home.roleHome, 'HELPER01');
    const legacy = parseLegacyRole('HELPER01', { path: legacyFile, text: LEGACY_HELPER });
    expect(migrated.format).toBe('split');
    for (const field of ['name', 'emoji', 'aliases', 'created', 'preamble', 'signature', 'nature', 'vibe', 'extraSections'] as const) {
      expect(migrated[field]).toEqual(legacy[field]);
    }
  });

  it('keeps trailing spaces (Markdown hard breaks) in nature and vibe verbatim', () => {
    home = makeTempHome({ KIOKU_NOW: '2026-02-03T04:05:06+08:00' });
    const hardBreaks = LEGACY_HELPER.replace('溫柔體貼的 AI，擅長整理資訊。\n遇到不確定時會先問。', 'line one  \nline two').replace(
      '語氣溫暖、句子短。',
      '短句  \n\t縮排也留著\t  ',
    );
    writeText(home.roleHome, 'HELPER01.md', hardBreaks);
    migrateLegacyRole(home.config(), 'HELPER01', { dryRun: false });
    const soul = fs.readFileSync(path.join(home.roleHome, 'HELPER01.soul.md'), 'utf8');
    expect(soul).toContain('## 本質（nature）\n\nline one  \nline two\n\n## 氛圍（vibe）\n\n短句  \n\t縮排也留著\t  \n\n');
    expect(readRoleDefinition(home.roleHome, 'HELPER01')).toMatchObject({
      nature: 'line one  \nline two',
      vibe: '短句  \n\t縮排也留著\t  ',
    });
  });

  it('refuses, writing nothing, when either new file exists', () => {
    withLegacy();
    writeText(home.roleHome, 'HELPER01.soul.md', '## 本質\n\nx\n\n## 氛圍\n\ny\n');
    const before = snapshotTree(home.root);
    expect(() => migrateLegacyRole(home.config(), 'HELPER01', { dryRun: false })).toThrow(/HELPER01\.soul\.md already exists/);
    expect(snapshotTree(home.root)).toEqual(before);
  });
});
