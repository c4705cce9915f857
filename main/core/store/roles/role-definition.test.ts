import { describe, expect, it } from 'vitest';
import {
  ENGLISH_IDENTITY,
  ENGLISH_SOUL,
  LEGACY_HELPER,
  SPLIT_ENGINEER_IDENTITY,
  SPLIT_ENGINEER_SOUL,
} from '../../../../test/cli/role-test-fixtures.js';
import { parseLegacyRole, parseSplitRole } from './role-definition.js';
import { classifyRoleHeading, splitRoleMarkdown } from './role-sections.js';
import { RELATIONSHIP_PLACEHOLDER, SOURCE_PLACEHOLDER, serializeIdentity, serializeSoul } from './role-serialize.js';

const file = (path: string, text: string) => ({ path, text });

describe('classifyRoleHeading', () => {
  it.each([
    ['本質（nature）', 'nature'],
    ['本質', 'nature'],
    ['Nature', 'nature'],
    ['人格 (nature)', 'nature'],
    ['氛圍(vibe)', 'vibe'],
    ['VIBE', 'vibe'],
    ['來源（source）', 'source'],
    ['Source', 'source'],
    ['關係定位（relationship）', 'relationship'],
    ['Relationship', 'relationship'],
    ['簽名 emoji', 'signature'],
    ['Signature emoji', 'signature'],
    ['共用行為（所有角色一致，由 /jsc-generic:role 維護，請勿手動修改）', 'shared'],
  ])('%s → %s', (heading, kind) => {
    expect(classifyRoleHeading(heading)).toBe(kind);
  });

  it('leaves free sections alone', () => {
    expect(classifyRoleHeading('核心信念')).toBeUndefined();
    expect(classifyRoleHeading('Boundaries')).toBeUndefined();
  });
});

describe('splitRoleMarkdown', () => {
  it('keeps ### inside a section and ignores headings in code fences', () => {
    const doc = splitRoleMarkdown('# 名字\n\n前言\n\n## A\n\n### sub\ntext\n\n```\n## not a heading\n```\n\n## B\nb\n');
    expect(doc.title).toBe('名字');
    expect(doc.preamble).toBe('前言');
    expect(doc.sections.map((s) => s.heading)).toEqual(['A', 'B']);
    expect(doc.sections[0]!.body).toBe('### sub\ntext\n\n```\n## not a heading\n```');
  });
});

describe('parseSplitRole', () => {
  it('reads a Chinese two-file role with preamble, extra soul sections and a YAML alias list', () => {
    const role = parseSplitRole(
      'ENGINEER01',
      file('/r/ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY),
      file('/r/ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL),
    );
    expect(role).toMatchObject({
      id: 'ENGINEER01',
      name: '小豹',
      emoji: '🐆',
      aliases: ['小豹子', 'leopard'],
      created: '2025-05-01T10:00:00+08:00',
      updated: '2025-05-02T10:00:00+08:00',
      preamble: '- 角色原型：資深工程師',
      source: '原創角色。',
      relationship: '使用者的同事，叫使用者「老大」。',
      signature: '🐆',
      nature: '冷靜可靠的資深工程師，重證據、不打包票。',
      vibe: '簡潔直白、偶爾吐槽。',
      format: 'split',
      files: ['/r/ENGINEER01.identity.md', '/r/ENGINEER01.soul.md'],
      extraFields: { appearance_reference: '/path/avatar.png' },
    });
    expect(role.extraSections).toEqual([
      { heading: '核心信念', body: '證據優先。', origin: 'soul' },
      { heading: '語氣與風格', body: '```text\n## 這不是章節\n```', origin: 'soul' },
    ]);
  });

  it('reads English headings and strips a BOM', () => {
    const role = parseSplitRole('MUSE01', file('/r/MUSE01.identity.md', ENGLISH_IDENTITY), file('/r/MUSE01.soul.md', ENGLISH_SOUL));
    expect(role).toMatchObject({
      name: 'Muse',
      aliases: ['inspiration'],
      source: 'Greek myth.',
      relationship: 'A creative partner.',
      nature: 'Sparks ideas.',
      vibe: 'Playful.',
    });
    expect(role.extraSections).toEqual([{ heading: 'Boundaries', body: 'Never writes code for you.', origin: 'soul' }]);
    expect(role.headings).toMatchObject({ nature: 'Nature', vibe: 'Vibe', source: 'Source' });
  });

  it('refuses a soul without nature, naming the file', () => {
    expect(() => parseSplitRole('X0001', file('/r/i.md', SPLIT_ENGINEER_IDENTITY), file('/r/s.md', '## 氛圍\n\nok\n'))).toThrow(
      /\/r\/s\.md has no ## 本質/,
    );
  });

  it('reads fill-in placeholders as empty, so they are never injected', () => {
    const identity = SPLIT_ENGINEER_IDENTITY.replace('原創角色。', SOURCE_PLACEHOLDER);
    const role = parseSplitRole('ENGINEER01', file('/i', identity), file('/s', SPLIT_ENGINEER_SOUL));
    expect(role.source).toBe('');
  });
});

describe('parseLegacyRole', () => {
  it('reads one file and drops the shared-rules block from the persona', () => {
    const role = parseLegacyRole('HELPER01', file('/r/HELPER01.md', LEGACY_HELPER));
    expect(role).toMatchObject({
      name: '結衣',
      aliases: ['ゆい', 'Yui'],
      preamble: '- 存在本質：AI 的女兒\n- 主要稱呼：爸爸',
      nature: '溫柔體貼的 AI，擅長整理資訊。\n遇到不確定時會先問。',
      vibe: '語氣溫暖、句子短。',
      signature: '🌸',
      source: '',
      format: 'legacy',
      hadSharedBlock: true,
    });
    expect(role.extraSections).toEqual([{ heading: '核心信念', body: '家人最重要。', origin: 'soul' }]);
  });
});

describe('serializeIdentity / serializeSoul', () => {
  it('round-trips every field and keeps English headings', () => {
    const role = parseSplitRole('MUSE01', file('/i', ENGLISH_IDENTITY), file('/s', ENGLISH_SOUL));
    const again = parseSplitRole('MUSE01', file('/i', serializeIdentity(role)), file('/s', serializeSoul(role)));
    expect({ ...again, files: [] }).toEqual({ ...role, files: [] });
    expect(serializeSoul(role)).toContain('## Nature\n\nSparks ideas.');
  });

  it('writes placeholders for unknown source and relationship', () => {
    const role = parseLegacyRole('HELPER01', file('/r/HELPER01.md', LEGACY_HELPER));
    const identity = serializeIdentity(role);
    expect(identity).toContain(`## 來源（source）\n\n${SOURCE_PLACEHOLDER}`);
    expect(identity).toContain(`## 關係定位（relationship）\n\n${RELATIONSHIP_PLACEHOLDER}`);
    expect(identity).toContain('aliases: "ゆい, Yui"');
    expect(identity).not.toContain('共用行為');
  });
});
