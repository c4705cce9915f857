import path from 'node:path';
import { ALL_CATEGORIES, MEMORY_TYPES, type Memory, type MemoryCategory } from '../common/memory.js';
import { writeFileAtomicSync } from '../main/core/platform/fs/atomic-write.js';
import { fileNameForId, serializeMemory } from '../main/core/store/memory/memory-file.js';
import { ensureRoleMemoryDirs } from '../main/core/store/memory/memory-layout.js';

/**
 * Realistic memories for benches: zh-TW sentences built from a word list (2–4 character words,
 * the lengths people type in a query), tags, categories and types as consolidation leaves them.
 * A fixed-seed generator makes every run produce the same files.
 */
const PEOPLE = ['使用者', '同事', '主管', '客戶', '朋友', '家人', '室友', '老師'];
const TIMES = ['昨天', '今天早上', '上週', '剛才', '週末', '下午', '晚上', '月底', '開會前', '午餐時'];
const VERBS = ['提到', '討論', '整理', '修好', '決定', '喜歡', '抱怨', '學會', '安排', '重寫', '測試', '部署', '買了', '約了', '想要'];
const NOUNS = [
  '咖啡',
  '頭髮',
  '會議',
  '資料庫',
  '索引',
  '測試案例',
  '部署流程',
  '程式碼',
  '設計稿',
  '需求文件',
  '筆電',
  '鍵盤',
  '耳機',
  '捷運',
  '高鐵',
  '便當',
  '珍珠奶茶',
  '牛肉麵',
  '小籠包',
  '火鍋',
  '夜市',
  '電影',
  '音樂',
  '吉他',
  '鋼琴',
  '籃球',
  '游泳',
  '登山',
  '腳踏車',
  '貓咪',
  '狗狗',
  '植物',
  '陽台',
  '房租',
  '搬家',
  '旅行',
  '機票',
  '簽證',
  '日本',
  '台南',
  '花蓮',
  '報告',
  '簡報',
  '預算',
  '合約',
  '發票',
  '報稅',
  '健身房',
  '瑜珈',
  '睡眠',
  '早餐',
  '午餐',
  '晚餐',
  '蛋糕',
  '生日',
  '禮物',
  '婚禮',
  '小孩',
  '學校',
  '考試',
  '英文',
  '日文',
  '韓劇',
  '動畫',
  '漫畫',
  '小說',
  '部落格',
  '相機',
  '照片',
  '手機',
  '平板',
  '雲端',
  '備份',
  '密碼',
  '權限',
  '伺服器',
  '網路',
  '防火牆',
  '容器',
  '排程',
  '日誌',
  '效能',
  '記憶體',
  '快取',
  '介面',
  '按鈕',
  '顏色',
  '字型',
  '翻譯',
  '文件',
  '版本',
  '分支',
  '合併',
];
const ADJECTIVES = [
  '很清爽',
  '有點累',
  '非常開心',
  '壓力很大',
  '很順利',
  '不太滿意',
  '很期待',
  '覺得麻煩',
  '很安心',
  '有點擔心',
  '很滿足',
  '太慢了',
];
const EXTRA_CLAUSES = [
  '希望下次可以更早開始',
  '記得要提醒一下',
  '之後再追蹤進度',
  '這件事情很重要',
  '可能需要再確認',
  '大家都同意這個做法',
];
const ENGLISH = ['SQLite', 'TypeScript', 'Docker', 'React', 'Kubernetes', 'GitHub', 'Python', 'CI'];

/** mulberry32: tiny, fast and good enough to make benches repeatable. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function sentence(random: () => number): string {
  const tech = random() < 0.2 ? `用 ${pick(random, ENGLISH)} ` : '';
  return `${pick(random, PEOPLE)}${pick(random, TIMES)}${pick(random, VERBS)}${tech}${pick(random, NOUNS)}和${pick(random, NOUNS)}，${pick(random, ADJECTIVES)}`;
}

function memoryAt(random: () => number, index: number, category: MemoryCategory): Memory {
  const summary = sentence(random);
  const body = [`主旨：${summary}。`, `細節：${sentence(random)}；${pick(random, EXTRA_CLAUSES)}。${sentence(random)}。`].join('\n');
  const priority = 1 + Math.floor(random() * 5);
  const day = String(1 + (index % 28)).padStart(2, '0');
  return {
    id: `20260101-bench-${String(index).padStart(7, '0')}`,
    category,
    summary,
    tags: [pick(random, NOUNS), pick(random, NOUNS)],
    priority,
    cues: random() < 0.5 ? [pick(random, NOUNS)] : [],
    expires: '',
    relevance: random() < 0.2 ? ['emotional'] : ['explicit'],
    links: [],
    memory_type: pick(random, MEMORY_TYPES),
    declarative: 'explicit',
    retention_stage: category === 'inbox' ? 'working' : 'long_term',
    sleep_stage: category === 'inbox' ? 'encoding' : 'nrem-rem',
    created: `2026-01-${day}T10:00:00+08:00`,
    updated: `2026-01-${day}T10:00:00+08:00`,
    last_replayed: '',
    hits: 0,
    strength: 30 + priority * 10,
    body,
    extra: {},
  };
}

/** Write `count` memories for one role, spread over every category (inbox included). */
export function generateMemories(memoryHome: string, role: string, count: number, seed = 42): void {
  const roleDir = ensureRoleMemoryDirs(memoryHome, role);
  const random = seededRandom(seed);
  for (let i = 0; i < count; i += 1) {
    const category = ALL_CATEGORIES[i % ALL_CATEGORIES.length]!;
    const memory = memoryAt(random, i, category);
    // Not durable: generation is not what is measured, and fsync per file would take minutes.
    writeFileAtomicSync(path.join(roleDir, category, fileNameForId(memory.id)), serializeMemory(memory), { durable: false, mkdir: false });
  }
}

/** Bench queries: words from the list (2–4 characters) and short phrases cut from real summaries. */
export function benchQueries(count: number, seed = 7): string[] {
  const random = seededRandom(seed);
  const queries: string[] = [];
  while (queries.length < count) {
    if (random() < 0.7) {
      queries.push(pick(random, random() < 0.5 ? NOUNS : VERBS));
      continue;
    }
    const text = sentence(random).replace(/[^\p{Script=Han}]/gu, '');
    const length = 3 + Math.floor(random() * 2);
    const start = Math.floor(random() * Math.max(1, text.length - length));
    queries.push(text.slice(start, start + length));
  }
  return queries;
}
