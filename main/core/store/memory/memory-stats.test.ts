import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySeed000Fixture, fingerprints, SEED000_ROLE, writeMemoryFixture } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { loadRoleMemories } from './memory-layout.js';
import { memoryStats } from './memory-stats.js';

const NOW = new Date('2026-12-01T12:00:00+08:00');
const DAY = 86_400_000;
let home: TempHome;
let roleDir: string;
beforeEach(() => {
  home = makeTempHome();
  roleDir = copySeed000Fixture(home.memoryHome);
});
afterEach(() => home.cleanup());

describe('files written by seed 000 scripts', () => {
  it('are counted per category and per type', () => {
    const stats = memoryStats(home.memoryHome, SEED000_ROLE, NOW);
    const { clarity, ...counts } = stats;
    expect(counts).toEqual({
      role: SEED000_ROLE,
      categories: { inbox: 1, important: 1, interest: 1, news: 0, skill: 1, daily: 1, other: 1 },
      types: { semantic: 1, episodic: 3, procedural: 1, emotional: 0, preference: 1, rule: 0 },
      total: 6,
      problems: [],
    });
    // Every consolidated memory (not the inbox one) is in exactly one clarity state.
    expect(clarity.clear + clarity.faded + clarity.fuzzy).toBe(5);
  });

  it('load with defaults filled and nothing lost', () => {
    const { memories } = loadRoleMemories(home.memoryHome, SEED000_ROLE);
    const byId = Object.fromEntries(memories.map((m) => [m.id, m]));
    expect(byId['20261101-101500-ab12']).toMatchObject({
      summary: '使用者說: 好，以後回覆都用繁體中文',
      tags: ['偏好', '語言'],
      priority: 5,
      memory_type: 'preference',
      declarative: 'explicit',
      retention_stage: 'long_term',
      created: '2026/11/01 10:15:00',
      updated: '2026/11/01 10:15:00',
      hits: 0,
      cues: [],
      links: [],
    });
    expect(byId['20261128-220000-cd34']).toMatchObject({
      tags: ['build', 'CI', '除錯'],
      memory_type: 'episodic',
      retention_stage: 'working',
      sleep_stage: 'encoding',
      priority: 3,
    });
    expect(byId['20261105-140000-0a1b']).toMatchObject({ cues: ['部署', 'deploy', 'release'], extra: { source_session: 'abc-123' } });
    expect(byId['20261120-200000-77aa']?.body).toContain('{{not a template}}');
    expect(byId['legacy-note']).toMatchObject({ category: 'other', summary: '舊筆記', memory_type: 'semantic' });
  });

  it('are not modified by reading them (bytes and mtime)', () => {
    const before = fingerprints(roleDir);
    memoryStats(home.memoryHome, SEED000_ROLE);
    loadRoleMemories(home.memoryHome, SEED000_ROLE);
    expect(fingerprints(roleDir)).toEqual(before);
  });
});

describe('clarity (PM-2 made visible)', () => {
  const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
  const write = (category: string, id: string, days: number, fields: Record<string, unknown> = {}) =>
    writeMemoryFixture(home.memoryHome, 'CLARITY01', category, id, {
      summary: id,
      priority: 3,
      strength: 60,
      hits: 0,
      memory_type: 'semantic',
      created: daysAgo(days),
      updated: daysAgo(days),
      ...fields,
    });

  it('counts consolidated memories as clear, faded or fuzzy at the config clock, leaving the inbox out', () => {
    write('news', 'fresh', 1);
    write('news', 'recalled-often', 40, { hits: 20 });
    write('daily', 'fading', 30);
    write('other', 'fuzzy', 120);
    write('interest', 'rule-never-fades', 400, { memory_type: 'rule' });
    write('inbox', 'old-inbox', 400);
    const stats = memoryStats(home.memoryHome, 'CLARITY01', NOW);
    expect(stats.clarity).toEqual({ clear: 3, faded: 1, fuzzy: 1 });
    expect(stats.total).toBe(6);
    // The same files a year later: only the rule is still clear.
    expect(memoryStats(home.memoryHome, 'CLARITY01', new Date(NOW.getTime() + 365 * DAY)).clarity).toEqual({
      clear: 1,
      faded: 0,
      fuzzy: 4,
    });
  });
});

describe('corrupt files', () => {
  it('are reported one by one while every other memory still loads', () => {
    fs.writeFileSync(path.join(roleDir, 'inbox', 'binary.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01, 0x02, 0xff]));
    fs.writeFileSync(
      path.join(roleDir, 'daily', 'unclosed.md'),
      '---\nid: unclosed\nsummary: 沒有結尾的 frontmatter\n\n內文被吃進 frontmatter 裡了\n',
    );
    fs.writeFileSync(
      path.join(roleDir, 'other', 'latin1.md'),
      Buffer.concat([Buffer.from('---\nsummary: caf'), Buffer.from([0xe9]), Buffer.from('\n---\nbody\n')]),
    );
    const stats = memoryStats(home.memoryHome, SEED000_ROLE);
    expect(stats.total).toBe(6);
    expect(stats.problems.map((p) => path.basename(p.path)).sort()).toEqual(['binary.md', 'latin1.md', 'unclosed.md']);
    expect(stats.problems.find((p) => p.path.endsWith('unclosed.md'))?.message).toMatch(/never closed/);
    expect(stats.problems.find((p) => p.path.endsWith('latin1.md'))?.message).toMatch(/UTF-8/);
  });

  it('a role without a memory folder has zero of everything', () => {
    expect(memoryStats(home.memoryHome, 'NOBODY01')).toMatchObject({ total: 0, problems: [], categories: { inbox: 0 } });
  });
});
