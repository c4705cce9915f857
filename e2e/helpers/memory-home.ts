import fs from 'node:fs';
import path from 'node:path';
import { fixedClock } from '../../main/core/platform/config/clock.js';
import { loadConfig } from '../../main/core/platform/config/config.js';
import { createRole, planRoleChange } from '../../main/core/store/roles/role-editor.js';
import { writeMemoryFixture } from '../../test/helpers/memory-fixtures.js';
import type { TempHome } from '../../test/helpers/temp-home.js';

/**
 * A lived-in memory home for the timeline, sleep-history and bonds specs: one zh-TW role with
 * about thirty memories over two months (every memory type, the three clarity states, inbox
 * items, links, a warm memory), two earlier consolidations in DIGESTS.md and a few BONDS.md lines.
 * Files are written the way Kioku writes them (frontmatter + body), before the daemon starts.
 */
export const NOW = '2026-11-30T14:00:00+08:00';
export const ROLE = 'ENGINEER01';

export function createEngineerRole(home: TempHome): string {
  const config = loadConfig(home.env, { clock: fixedClock('2026-09-20T10:00:00+08:00') });
  const plan = planRoleChange(config, {
    prefix: 'ENGINEER',
    name: '小豹',
    emoji: '🐆',
    nature: '冷靜可靠的資深工程師，重證據、不打包票。',
    vibe: '簡潔直白、偶爾吐槽。',
    relationship: '一起寫程式的搭檔',
  });
  if (plan.kind !== 'create') throw new Error('the sample role exists already');
  return createRole(config, plan).role.id;
}

interface Sample {
  id: string;
  category: string;
  type: string;
  summary: string;
  created: string;
  priority?: number;
  tags?: string[];
  body?: string;
  links?: string[];
  cues?: string[];
  relevance?: string[];
  expires?: string;
  hits?: number;
  strength?: number;
}

/** Consolidated memories (25). `m-deploy` is the only one that mentions 部署. */
export const CONSOLIDATED: Sample[] = [
  {
    id: 'm-deploy',
    category: 'important',
    type: 'procedural',
    priority: 4,
    summary: '正式環境部署要先跑 smoke test 再切換流量',
    tags: ['部署', '上線'],
    cues: ['上線', '切換流量'],
    links: ['m-rollback', 'm-healthcheck', 'm-old-script'],
    body: '主旨：部署流程固定三步。\n細節：先在 staging 跑 smoke test，確認健康檢查通過後，用 blue-green 切換流量；\n切換後觀察十分鐘的錯誤率，再關掉舊的那一組。',
    created: '2026-11-26T16:20:00+08:00',
    hits: 3,
    strength: 84,
  },
  {
    id: 'm-rollback',
    category: 'skill',
    type: 'procedural',
    priority: 4,
    summary: '回滾指令記在 runbook 第二節',
    created: '2026-11-20T10:00:00+08:00',
    tags: ['runbook'],
  },
  {
    id: 'm-healthcheck',
    category: 'skill',
    type: 'semantic',
    summary: '健康檢查端點是 /healthz，逾時 3 秒',
    created: '2026-11-18T15:30:00+08:00',
  },
  {
    id: 'm-node20',
    category: 'important',
    type: 'rule',
    priority: 5,
    summary: '專案一律使用 Node 20，不升級到 22',
    created: '2026-11-10T09:10:00+08:00',
    tags: ['node'],
  },
  { id: 'm-indent', category: 'interest', type: 'preference', summary: '使用者偏好兩格空白縮排', created: '2026-11-05T20:00:00+08:00' },
  {
    id: 'm-thanks',
    category: 'important',
    type: 'emotional',
    summary: '使用者說謝謝陪他把 bug 修完',
    relevance: ['emotional'],
    created: '2026-11-28T22:10:00+08:00',
    body: '凌晨一點終於找到競態條件，他說：「謝謝你一直陪我。」',
  },
  {
    id: 'm-coffee',
    category: 'daily',
    type: 'episodic',
    priority: 2,
    summary: '早上聊到喜歡淺焙的衣索比亞咖啡',
    created: '2026-10-02T08:30:00+08:00',
  },
  {
    id: 'm-bookclub',
    category: 'interest',
    type: 'episodic',
    summary: '讀書會讀完《設計資料密集型應用》第五章',
    created: '2026-11-01T19:30:00+08:00',
  },
  { id: 'm-rust', category: 'news', type: 'semantic', summary: 'Rust 2024 edition 正式發布', created: '2026-10-15T12:00:00+08:00' },
  { id: 'm-meeting', category: 'daily', type: 'episodic', summary: '週三下午和 PM 對齊了 Q1 路線圖', created: '2026-11-25T15:00:00+08:00' },
  { id: 'm-typo', category: 'other', type: 'episodic', priority: 2, summary: '修正 README 裡的錯字', created: '2026-11-12T11:00:00+08:00' },
  {
    id: 'm-vim',
    category: 'interest',
    type: 'preference',
    summary: '使用者用 Neovim，leader 鍵是空白鍵',
    created: '2026-10-20T21:00:00+08:00',
  },
  {
    id: 'm-sql',
    category: 'skill',
    type: 'procedural',
    summary: 'SQLite 大量寫入時先開 WAL 並包在交易裡',
    created: '2026-11-03T14:00:00+08:00',
    tags: ['sqlite'],
  },
  { id: 'm-timezone', category: 'important', type: 'rule', summary: '時間一律存 ISO 8601 並帶時區', created: '2026-10-28T10:00:00+08:00' },
  {
    id: 'm-cat',
    category: 'daily',
    type: 'emotional',
    summary: '使用者的貓「麻糬」今天生日',
    relevance: ['emotional'],
    created: '2026-11-15T18:00:00+08:00',
  },
  {
    id: 'm-ci',
    category: 'skill',
    type: 'procedural',
    summary: 'CI 失敗先看第一個錯誤，不要從最後一行往上猜',
    created: '2026-11-08T16:00:00+08:00',
  },
  {
    id: 'm-review',
    category: 'important',
    type: 'preference',
    summary: '程式碼審查時先講結論再列細節',
    created: '2026-11-01T09:00:00+08:00',
  },
  {
    id: 'm-safari',
    category: 'important',
    type: 'episodic',
    summary: '修掉登入頁在 Safari 白屏的問題',
    created: '2026-11-21T17:40:00+08:00',
    tags: ['前端'],
  },
  { id: 'm-ts', category: 'news', type: 'semantic', summary: 'TypeScript 新版加入了 import defer', created: '2026-11-02T13:00:00+08:00' },
  { id: 'm-walk', category: 'daily', type: 'episodic', summary: '午休散步時想到快取失效的解法', created: '2026-10-10T12:40:00+08:00' },
  {
    id: 'm-font',
    category: 'interest',
    type: 'semantic',
    summary: '思源黑體在小字時比微軟正黑體清楚',
    created: '2026-10-30T22:00:00+08:00',
  },
  {
    id: 'm-report',
    category: 'important',
    type: 'episodic',
    priority: 4,
    summary: '12 月 15 日前要交出年度報告',
    relevance: ['future'],
    expires: '2026-12-15',
    created: '2026-11-24T09:30:00+08:00',
  },
  {
    id: 'm-tests',
    category: 'skill',
    type: 'rule',
    summary: '每個修 bug 的 PR 都要附一個會先失敗的測試',
    created: '2026-11-14T10:20:00+08:00',
  },
  { id: 'm-music', category: 'interest', type: 'preference', summary: '寫程式時喜歡聽 lo-fi', created: '2026-10-18T23:00:00+08:00' },
  {
    id: 'm-rest',
    category: 'daily',
    type: 'emotional',
    summary: '使用者說最近睡不好，提醒他早點休息',
    relevance: ['emotional'],
    created: '2026-11-27T23:30:00+08:00',
  },
];

/** Inbox items (5): what the last sessions captured, not consolidated yet. */
export const INBOX: Sample[] = [
  { id: 'i-virtual', category: 'inbox', type: 'episodic', summary: '今天在研究 React 虛擬清單', created: '2026-11-30T10:05:00+08:00' },
  { id: 'i-make', category: 'inbox', type: 'procedural', summary: '想把建置腳本改成 make 指令', created: '2026-11-30T11:30:00+08:00' },
  {
    id: 'i-backoff',
    category: 'inbox',
    type: 'semantic',
    summary: '使用者問了 WebSocket 重新連線的退避時間',
    created: '2026-11-30T12:40:00+08:00',
  },
  { id: 'i-noodles', category: 'inbox', type: 'episodic', summary: '午餐吃了牛肉麵', created: '2026-11-30T12:10:00+08:00' },
  { id: 'i-review', category: 'inbox', type: 'episodic', summary: '下週要幫忙看新同事的 PR', created: '2026-11-29T18:00:00+08:00' },
];

export function writeSamples(home: TempHome, role: string, samples: Sample[]): void {
  for (const sample of samples) {
    const { id, category, type, summary, created, body, ...rest } = sample;
    writeMemoryFixture(
      home.memoryHome,
      role,
      category,
      id,
      {
        summary,
        memory_type: type,
        priority: rest.priority ?? 3,
        tags: rest.tags ?? [],
        cues: rest.cues ?? [],
        links: rest.links ?? [],
        relevance: rest.relevance ?? [],
        ...(rest.expires ? { expires: rest.expires } : {}),
        retention_stage: category === 'inbox' ? 'working' : 'long_term',
        sleep_stage: category === 'inbox' ? 'encoding' : 'nrem-rem',
        created,
        updated: created,
        hits: rest.hits ?? 0,
        strength: rest.strength ?? 60,
      },
      body ?? `${summary}。`,
    );
  }
}

/** Two earlier consolidations and a few bonds, as Kioku writes DIGESTS.md and BONDS.md. */
export function writeHistory(home: TempHome, role: string): void {
  const dir = path.join(home.memoryHome, role);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'DIGESTS.md'),
    [
      '# 整理摘要（DIGESTS）',
      '',
      '## 2026/11/29 03:00:12',
      '整理了 4 則待整理記憶：部署流程合併成一則，新增兩則關於 runbook 與健康檢查的技能。',
      '- applied: created 2, merged 1, discarded 1',
      '',
      '## 2026/11/27 02:40:05',
      '整理了 3 則待整理記憶，記下了使用者的縮排偏好。',
      '- applied: created 3, merged 0, discarded 0',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'BONDS.md'),
    [
      '# 關係史（BONDS）',
      '',
      '- 2026-11-15 18:05 [使用者→角色] 今天是麻糬的生日，想跟你分享',
      '- 2026-11-27 23:35 [角色→使用者] 擔心他最近睡不好，希望他早點休息',
      '- 2026-11-28 22:12 [使用者→角色] 謝謝你一直陪我把 bug 修完',
      '- 2026-11-29 09:00 [相互] 一起把部署流程整理好了，兩個人都鬆了一口氣',
      '',
    ].join('\n'),
  );
}
