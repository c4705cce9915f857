/**
 * The memory model of seed 000 §記憶模型 (MEM-2) plus PM-2's strength, as plain types.
 * Every process (hooks, core, renderer) shares these; the on-disk format lives in
 * main/core/store/memory/memory-file.ts.
 */
export const CATEGORIES = ['important', 'interest', 'news', 'skill', 'daily', 'other'] as const;
export type ConsolidatedCategory = (typeof CATEGORIES)[number];
export type MemoryCategory = 'inbox' | ConsolidatedCategory;
export const ALL_CATEGORIES: readonly MemoryCategory[] = ['inbox', ...CATEGORIES];

export const MEMORY_TYPES = ['semantic', 'episodic', 'procedural', 'emotional', 'preference', 'rule'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export const DECLARATIVE = ['explicit', 'implicit'] as const;
export type Declarative = (typeof DECLARATIVE)[number];

export const RETENTION_STAGES = ['working', 'long_term'] as const;
export type RetentionStage = (typeof RETENTION_STAGES)[number];

export const SLEEP_STAGES = ['encoding', 'seed', 'nrem', 'rem', 'nrem-rem'] as const;
export type SleepStage = (typeof SLEEP_STAGES)[number];

/** Known relevance words; others are kept as written. */
export const RELEVANCE = ['explicit', 'future', 'repeated', 'novelty', 'emotional', 'temporary'] as const;

/** Category labels for people (zh-TW first, seed 000 §記憶模型). */
export const CATEGORY_LABELS: Record<MemoryCategory, { zh: string; en: string }> = {
  inbox: { zh: '待整理', en: 'Inbox' },
  important: { zh: '重要', en: 'Important' },
  interest: { zh: '興趣', en: 'Interest' },
  news: { zh: '新知', en: 'News' },
  skill: { zh: '技能', en: 'Skill' },
  daily: { zh: '日常', en: 'Daily' },
  other: { zh: '其他', en: 'Other' },
};

export const MEMORY_TYPE_LABELS: Record<MemoryType, { zh: string; en: string }> = {
  semantic: { zh: '語意', en: 'Semantic' },
  episodic: { zh: '事件', en: 'Episodic' },
  procedural: { zh: '程序', en: 'Procedural' },
  emotional: { zh: '情緒', en: 'Emotional' },
  preference: { zh: '偏好', en: 'Preference' },
  rule: { zh: '規則', en: 'Rule' },
};

export interface Memory {
  id: string;
  category: MemoryCategory;
  summary: string;
  tags: string[];
  /** 1–5 */
  priority: number;
  cues: string[];
  /** A date (YYYY-MM-DD or ISO) or a condition text (MEM-8); empty when none. */
  expires: string;
  relevance: string[];
  links: string[];
  memory_type: MemoryType;
  declarative: Declarative;
  retention_stage: RetentionStage;
  sleep_stage: SleepStage;
  created: string;
  updated: string;
  last_replayed: string;
  hits: number;
  /** PM-2: 0–100, +8 on each recall. */
  strength: number;
  /** Markdown body (gist and detail, PM-1). */
  body: string;
  /**
   * Frontmatter keys Kioku does not know, kept verbatim so that rewriting a file written by
   * another tool (seed 000's memory.js, a user's editor) never drops data.
   */
  extra: Record<string, unknown>;
}

/** A memory together with where it lives. */
export interface StoredMemory extends Memory {
  role: string;
  /** Absolute path of the .md file. */
  path: string;
}

/** A file that could not be read as a memory; reported, never fatal for the others. */
export interface MemoryLoadProblem {
  path: string;
  message: string;
}

export function isCategory(value: string): value is MemoryCategory {
  return (ALL_CATEGORIES as readonly string[]).includes(value);
}

export function isMemoryType(value: string): value is MemoryType {
  return (MEMORY_TYPES as readonly string[]).includes(value);
}

/** MEM-6: a memory is warm when its relevance carries `emotional`. */
export function hasWarmth(memory: Pick<Memory, 'relevance'>): boolean {
  return memory.relevance.includes('emotional');
}
