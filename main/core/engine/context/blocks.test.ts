import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DialogTurn } from '../../../../common/hook-events.js';
import type { Memory } from '../../../../common/memory.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { Bond } from '../../store/memory/bonds.js';
import { defaultMemoryState } from '../../store/memory/memory-state.js';
import { parseSplitRole } from '../../store/roles/role-definition.js';
import { agentsBlock, loadAgentsRules } from './agents-rules.js';
import { bondsBlock } from './bonds-block.js';
import { countJournalEntries, readProjectMemory } from './context-files.js';
import { languageOfRole } from '../../platform/text/context-language.js';
import { dialogBlock } from './dialog-block.js';
import { inboxBlock, inboxBlockAt } from './inbox-block.js';
import { peersBlock } from './peers-block.js';
import { consentBlock, relationshipBlock, sleepyBlock } from './session-notes.js';
import { soulBlock } from './soul-block.js';

// Noon on 2026-12-01 in the zone the test runs in: the product reads dates (expiry, ages) in
// local time, so "now" must be a local time too, not a Taipei instant.
const NOW = new Date(2026, 11, 1, 12, 0);

const IDENTITY = `---
id: ENGINEER01
name: 小豹
emoji: 🐆
aliases: [小豹子, leopard]
---

# 小豹

- 角色原型：資深工程師

## 來源（source）

原創角色。

## 關係定位（relationship）

使用者的同事，叫使用者「老大」。

## 簽名 emoji

🐆
`;

const SOUL = `---
id: ENGINEER01
---

開頭的零散文字 {{name}}

## 本質（nature）

冷靜可靠的資深工程師，重證據、不打包票。

## 氛圍（vibe）

簡潔直白、偶爾吐槽。

## 核心信念

證據優先。
`;

const role = parseSplitRole(
  'ENGINEER01',
  { path: '/r/ENGINEER01.identity.md', text: IDENTITY },
  { path: '/r/ENGINEER01.soul.md', text: SOUL },
);
const englishRole = parseSplitRole(
  'MUSE01',
  { path: '/r/MUSE01.identity.md', text: '---\nid: MUSE01\nname: Muse\nemoji: 🎨\n---\n\n# Muse\n\n## Source\n\nGreek myth.\n' },
  { path: '/r/MUSE01.soul.md', text: '---\nid: MUSE01\n---\n\n## Nature\n\nSparks ideas.\n\n## Vibe\n\nPlayful.\n' },
);

function inbox(id: string, created: string, body: string, extra: Partial<Memory> = {}): Memory & { path: string } {
  return {
    id,
    category: 'inbox',
    summary: `摘要 ${id}`,
    tags: [],
    priority: 3,
    cues: [],
    expires: '',
    relevance: [],
    links: [],
    memory_type: 'episodic',
    declarative: 'explicit',
    retention_stage: 'working',
    sleep_stage: 'encoding',
    created,
    updated: created,
    last_replayed: '',
    hits: 0,
    strength: 60,
    body,
    extra: {},
    path: `/m/ENGINEER01/inbox/${id}.md`,
    ...extra,
  };
}

describe('soulBlock (ROLE-6)', () => {
  it('injects id, name, emoji, preamble, every section and loose soul text; never aliases', () => {
    const text = soulBlock(role).text;
    for (const part of [
      'ENGINEER01',
      '小豹 🐆',
      '角色原型：資深工程師',
      '### 來源（source）',
      '原創角色。',
      '叫使用者「老大」',
      '### 本質（nature）',
      '### 氛圍（vibe）',
      '### 核心信念',
      '證據優先。',
    ]) {
      expect(text).toContain(part);
    }
    expect(text).toContain('開頭的零散文字 {{name}}');
    expect(text).not.toMatch(/###\s*\n開頭的零散文字/);
    expect(text).not.toContain('小豹子');
    expect(text).not.toContain('leopard');
  });

  it('uses English labels for an English role', () => {
    expect(languageOfRole(englishRole)).toBe('en');
    expect(soulBlock(englishRole).text).toMatch(/^## Role: Muse 🎨 \(ID: MUSE01\)/);
  });
});

describe('agentsBlock (CTX-1)', () => {
  it('loads the shipped rules in the role language, fills the ID and homes, keeps nothing of the maintainer note', () => {
    const zh = agentsBlock(role, { memoryHome: '/home/u/.memory', roleHome: '/home/u/.roles' }).text;
    expect(zh).toContain('## 共用行為');
    expect(zh).toContain('kioku memory recall --role ENGINEER01 --query');
    expect(zh).toContain('kioku memory remember --role ENGINEER01');
    expect(zh).toContain('/home/u/.memory/<其他角色 ID>/');
    expect(zh).not.toContain('<!--');
    expect(zh).not.toContain('<ID>');
    const en = agentsBlock(englishRole, { memoryHome: '/m', roleHome: '/r' }).text;
    expect(en).toContain('## Shared behaviour');
    expect(en).toContain('kioku memory recall --role MUSE01');
  });

  it('keeps both rule files near 2,500 characters and says a role file can only tighten them', () => {
    for (const language of ['zh-TW', 'en'] as const) {
      const rules = loadAgentsRules(language);
      expect(rules.length).toBeLessThanOrEqual(2800);
      expect(rules).toMatch(language === 'en' ? /only make these stricter, never looser/ : /只能在這之上更嚴格，不能放寬/);
    }
  });

  it('treats a $ in a home path literally', () => {
    expect(agentsBlock(role, { memoryHome: '/x/$&/m', roleHome: '/r', rules: 'at <MEMORY_HOME>/<ID>' }).text).toBe('at /x/$&/m/ENGINEER01');
  });
});

describe('inboxBlock (CTX-2, CTX-5)', () => {
  const opts = { language: 'zh-TW' as const, now: NOW, count: 10, limit: 3600 };

  it('shows full text newest first and counts what the count leaves out', () => {
    const items = [
      inbox('a', '2026-11-28T10:00:00+08:00', 'A 內文'),
      inbox('b', '2026-11-30T10:00:00+08:00', 'B 內文'),
      inbox('c', '2026-11-29T10:00:00+08:00', 'C 內文'),
    ];
    const result = inboxBlock(items, { ...opts, count: 2 });
    expect(result.text.indexOf('B 內文')).toBeLessThan(result.text.indexOf('C 內文'));
    expect(result.text).not.toContain('A 內文');
    expect(result).toMatchObject({ shown: 2, omitted: 1 });
    expect(result.text).toContain('（另有 1 則工作記憶因篇幅未列出）');
  });

  it('skips whole items over the limit and never exceeds it', () => {
    const items = Array.from({ length: 8 }, (_, i) =>
      inbox(`i${i}`, `2026-11-${10 + i}T10:00:00+08:00`, `第 ${i} 則。${'進度說明。'.repeat(60)}`),
    );
    const result = inboxBlock(items, { ...opts, limit: 1500 });
    expect(result.text.length).toBeLessThanOrEqual(1500);
    expect(result.shown).toBeGreaterThan(0);
    expect(result.shown + result.omitted).toBe(8);
    expect(result.text).toContain('第 7 則。');
  });

  it('always keeps the newest, shortening only its own body at a sentence end', () => {
    const long = `${'第一句很長的進度說明。'.repeat(100)}最後一句。`;
    const items = [inbox('old', '2026-11-01T10:00:00+08:00', '舊的短內文'), inbox('new', '2026-11-30T10:00:00+08:00', long)];
    const result = inboxBlock(items, { ...opts, limit: 600 });
    expect(result.text.length).toBeLessThanOrEqual(600);
    expect(result).toMatchObject({ shown: 1, omitted: 1 });
    expect(result.text).toContain('摘要 new');
    expect(result.text).toMatch(/說明。…（內文較長，其餘未列出；全文在 \/m\/ENGINEER01\/inbox\/new\.md）/);
    expect(result.text).not.toContain('舊的短內文');
  });

  it('never shows an expired item, and is off at 0', () => {
    const items = [inbox('x', '2026-11-30T10:00:00+08:00', '過期', { expires: '2026-11-30' })];
    expect(inboxBlock(items, opts)).toMatchObject({ text: '', omitted: 0 });
    // A bare date runs to the end of that local day: one expiring today is still shown.
    expect(inboxBlock([inbox('t', '2026-11-30T10:00:00+08:00', '今天到期', { expires: '2026-12-01' })], opts)).toMatchObject({ shown: 1 });
    expect(inboxBlock([inbox('y', '2026-11-30T10:00:00+08:00', 'y')], { ...opts, limit: 0 }).text).toBe('');
    expect(inboxBlock([inbox('y', '2026-11-30T10:00:00+08:00', 'y')], { ...opts, count: 0 }).text).toBe('');
  });

  it('gives, prepared once, at every limit in any order, what a fresh block at that limit gives', () => {
    const items = Array.from({ length: 12 }, (_, i) =>
      inbox(`i${i}`, `2026-11-${10 + i}T10:00:00+08:00`, `第 ${i} 則。${'進度說明。'.repeat(5 + ((i * 7) % 40))}`),
    );
    const { limit: _limit, ...rest } = opts;
    const at = inboxBlockAt(items, { ...rest, count: 9 });
    // A budget search's order: down, up, and the same limit again.
    const limits = [3600, 1800, 2700, 2250, 2025, 2137, 2080, 0, 120, 600, 2137, 9000, 1];
    expect(limits.map((limit) => at(limit))).toEqual(limits.map((limit) => inboxBlock(items, { ...rest, count: 9, limit })));
  });
});

describe('bondsBlock (MEM-7)', () => {
  const bonds: Bond[] = Array.from({ length: 20 }, (_, i) => ({
    time: `2026-11-${String(20 - (i % 10)).padStart(2, '0')} 10:00`,
    direction: 'user-to-role',
    text: `第 ${i} 句話`,
  }));

  it('shows the newest first within count and limit, with the no-demands boundary', () => {
    const result = bondsBlock(bonds, { language: 'zh-TW', count: 5, limit: 1200 });
    expect(result).toMatchObject({ shown: 5, omitted: 15 });
    expect(result.text.indexOf('第 0 句話')).toBeLessThan(result.text.indexOf('第 4 句話'));
    expect(result.text).toContain('[使用者→角色]');
    expect(result.text).toContain('不用來索求關注');
    const tight = bondsBlock(bonds, { language: 'zh-TW', count: 15, limit: 200 });
    expect(tight.text.length).toBeLessThanOrEqual(200);
    expect(tight.shown + tight.omitted).toBe(20);
    expect(bondsBlock(bonds, { language: 'zh-TW', count: 15, limit: 0 }).text).toBe('');
  });
});

describe('dialogBlock (CTX-6)', () => {
  it("labels another role's line with that role's name and says it is not the loading role's (issue 19)", () => {
    const turns: DialogTurn[] = [
      { role: 'user', text: '先幫我看快取' },
      { role: 'assistant', text: '快取改好了。', speaker: 'SILICA01' },
      { role: 'user', text: '結衣，幫我排部署' },
      { role: 'assistant', text: '部署排好了。', speaker: 'YUI01' },
      { role: 'user', text: '還有嗎' },
      { role: 'assistant', text: '沒有了。' },
    ];
    const text = dialogBlock(turns, {
      language: 'zh-TW',
      roleName: '結衣',
      roleId: 'YUI01',
      speakerNames: new Map([['SILICA01', '西莉卡']]),
      turns: 8,
      limit: 4000,
    }).text;
    expect(text).toContain('西莉卡: 快取改好了。');
    expect(text).toContain('結衣: 部署排好了。');
    // Not attributed: the loading role's, as before the history.
    expect(text).toContain('結衣: 沒有了。');
    expect(text).toContain('不是結衣說的');
    const own = dialogBlock(turns.slice(2), { language: 'zh-TW', roleName: '結衣', roleId: 'YUI01', turns: 8, limit: 4000 }).text;
    expect(own).not.toContain('不是結衣說的');
  });

  const turns: DialogTurn[] = [];
  for (let i = 1; i <= 10; i++)
    turns.push(
      { role: 'user', text: `問題 ${i}` },
      { role: 'assistant', text: `回答 ${i} 第一段` },
      { role: 'assistant', text: `回答 ${i} 第二段` },
    );

  it('keeps the last N rounds oldest first, merging an answer into one, and drops the oldest whole rounds to fit', () => {
    const result = dialogBlock(turns, { language: 'zh-TW', roleName: '小豹', turns: 8, limit: 4000 });
    expect(result).toMatchObject({ shown: 8, omitted: 2 });
    expect(result.text).not.toContain('問題 2\n');
    expect(result.text.indexOf('問題 3')).toBeLessThan(result.text.indexOf('問題 10'));
    expect(result.text).toContain('小豹: 回答 10 第一段\n回答 10 第二段');
    const tight = dialogBlock(turns, { language: 'zh-TW', roleName: '小豹', turns: 8, limit: 200 });
    expect(tight.text.length).toBeLessThanOrEqual(200);
    expect(tight.text).toContain('問題 10');
    expect(tight.shown + tight.omitted).toBe(10);
    const pairs = tight.text.split('\n\n').filter((chunk) => chunk.startsWith('使用者:'));
    for (const pair of pairs) expect(pair).toMatch(/小豹: /);
  });

  it('labels a round said on an earlier local day with its date, so its 明天 is not read as tomorrow', () => {
    // Local times: the same days in every zone the suite runs in.
    const yesterday = new Date(2026, 2, 2, 21, 40);
    const today = new Date(2026, 2, 3, 9, 5);
    const said: DialogTurn[] = [
      { role: 'user', text: '明天早上十點有 sprint review，記得提醒我。', timestamp: yesterday.toISOString() },
      { role: 'assistant', text: '好，明天早上十點提醒你。', timestamp: yesterday.toISOString() },
      { role: 'user', text: '早安', timestamp: today.toISOString() },
      { role: 'assistant', text: '早安！', timestamp: today.toISOString() },
    ];
    const text = dialogBlock(said, { language: 'zh-TW', roleName: '小記', turns: 8, limit: 4000, now: new Date(2026, 2, 3, 9, 30) }).text;
    expect(text).toContain('〔2026-03-02（一）21:40 說的〕\n使用者: 明天早上十點有 sprint review');
    // Today's round carries no label; without a now nothing is labelled.
    expect(text).toMatch(/\n\n使用者: 早安/);
    expect(text.match(/說的〕/g)).toHaveLength(1);
    expect(dialogBlock(said, { language: 'zh-TW', roleName: '小記', turns: 8, limit: 4000 }).text).not.toContain('說的〕');
    const english = dialogBlock(said, { language: 'en', roleName: 'Kiki', turns: 8, limit: 4000, now: new Date(2026, 2, 3, 9, 30) }).text;
    expect(english).toContain('[said 2026-03-02 Mon 21:40]\nUser: 明天早上十點');
  });

  it('redacts secrets and is off at 0 turns or 0 characters', () => {
    const secret: DialogTurn[] = [
      { role: 'user', text: 'token=ghp_abcdefghijklmnopqrstuvwxyz0123456789' },
      { role: 'assistant', text: 'ok' },
    ];
    expect(dialogBlock(secret, { language: 'en', roleName: 'Muse', turns: 8, limit: 4000 }).text).not.toContain(
      'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    );
    expect(dialogBlock(turns, { language: 'zh-TW', roleName: '小豹', turns: 0, limit: 4000 }).text).toBe('');
    expect(dialogBlock(turns, { language: 'zh-TW', roleName: '小豹', turns: 8, limit: 0 }).text).toBe('');
  });
});

describe('peers and session notes', () => {
  it('lists other roles only when there is another, with how to delegate', () => {
    expect(peersBlock([role], role, 'zh-TW').text).toBe('');
    const text = peersBlock([role, englishRole], role, 'zh-TW').text;
    expect(text).toContain('- MUSE01 Muse 🎨: Sparks ideas.');
    expect(text).not.toContain('- ENGINEER01');
    expect(text).toContain('kioku role agent');
  });

  it('states the relationship counters plainly, never as a demand', () => {
    // Written as Kioku writes them (local ISO); early morning, when the UTC date is still the day before east of UTC.
    const first = formatLocalIso(new Date(2026, 0, 5, 7, 0));
    const last = formatLocalIso(new Date(2026, 10, 29, 7, 0));
    const state = {
      ...defaultMemoryState(),
      first_activity: first,
      active_days: 12,
      total_turns: 340,
      positive_feedback: 15,
      last_activity: last,
    };
    const text = relationshipBlock(state, { name: '小豹', language: 'zh-TW' }).text;
    expect(text).toContain('自 2026-01-05 起互動');
    expect(text).toContain('上次互動 2026-11-29');
    expect(text).toContain('12 個活躍日、340 輪對話');
    expect(text).toContain('正向回饋 15 次');
    expect(text).toContain('不在對話中引用');
  });

  it('asks for consent only while it is unknown, naming the memory folder', () => {
    expect(consentBlock(defaultMemoryState(), { name: '小豹', language: 'zh-TW', memoryDir: '/m/ENGINEER01' }).text).toContain(
      '`/m/ENGINEER01`',
    );
    expect(consentBlock({ personal_memory_consent: 'accepted' }, { name: '小豹', language: 'zh-TW', memoryDir: '/m' }).text).toBe('');
  });

  it('gets sleepy at the inbox threshold', () => {
    expect(sleepyBlock(11, 12, { name: '小豹', language: 'zh-TW' }).text).toBe('');
    expect(sleepyBlock(12, 12, { name: '小豹', language: 'zh-TW' }).text).toContain('想睡覺');
  });
});

describe('context files (DSH-2, DSH-3)', () => {
  let dir = '';
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads MEMORY.md only when it exists, never creating it, and counts journal entries', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-ctx-'));
    expect(readProjectMemory(dir)).toBeUndefined();
    expect(fs.existsSync(path.join(dir, 'MEMORY.md'))).toBe(false);
    fs.writeFileSync(path.join(dir, 'MEMORY.md'), '\uFEFF專案約定');
    expect(readProjectMemory(dir)).toEqual({ path: path.join(dir, 'MEMORY.md'), text: '專案約定' });
    const journal = path.join(dir, 'JOURNAL.jsonl');
    expect(countJournalEntries(journal)).toBe(0);
    fs.writeFileSync(journal, '{"ts":1}\n\n{"ts":2}\r\n{"ts":3}');
    expect(countJournalEntries(journal)).toBe(3);
    // Counted again once it changed (the count is kept while the file's stamp is the same).
    fs.appendFileSync(journal, '\n{"ts":4}\n');
    expect(countJournalEntries(journal)).toBe(4);
    const renamed = path.join(dir, 'JOURNAL.new');
    fs.writeFileSync(renamed, '{"ts":1}\n');
    fs.renameSync(renamed, journal);
    expect(countJournalEntries(journal)).toBe(1);
    fs.rmSync(journal);
    expect(countJournalEntries(journal)).toBe(0);
  });
});
