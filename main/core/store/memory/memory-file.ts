import { randomBytes } from 'node:crypto';
import {
  DECLARATIVE,
  RETENTION_STAGES,
  SLEEP_STAGES,
  isCategory,
  isMemoryType,
  type Declarative,
  type Memory,
  type MemoryCategory,
  type MemoryType,
  type RetentionStage,
  type SleepStage,
} from '../../../../common/memory.js';
import { formatCompactDateTime } from '../../platform/config/clock.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { stringifyFrontmatter } from '../../platform/frontmatter/stringify-frontmatter.js';

/** Frontmatter keys in the order the original role scripts' memory.js writes them (MEM-2), then PM-2's. */
export const MEMORY_KEYS = [
  'id',
  'category',
  'summary',
  'tags',
  'priority',
  'cues',
  'expires',
  'relevance',
  'links',
  'memory_type',
  'declarative',
  'retention_stage',
  'sleep_stage',
  'created',
  'updated',
  'last_replayed',
  'hits',
  'strength',
] as const;
const KNOWN = new Set<string>(MEMORY_KEYS);

/** Default memory_type per category when a file has none (the role skill: defaults from category and path). */
const TYPE_BY_CATEGORY: Record<MemoryCategory, MemoryType> = {
  inbox: 'episodic',
  important: 'semantic',
  interest: 'semantic',
  news: 'semantic',
  skill: 'procedural',
  daily: 'episodic',
  other: 'semantic',
};

export function defaultDeclarative(type: MemoryType): Declarative {
  return type === 'procedural' || type === 'emotional' ? 'implicit' : 'explicit';
}

/** PM-2: a memory starts as strong as it is salient; recall adds 8 each time. */
export function defaultStrength(priority: number): number {
  return Math.min(100, 30 + priority * 10);
}

/** Lists in the wild: YAML lists, `a, b`, `a、b` (Chinese enumeration comma), or one word. */
export function toStringList(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.map((item) => String(item).trim()).filter(Boolean);
  const text = String(value).trim();
  if (!text) return [];
  return text
    .split(/[,，、]/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * A Date is what a YAML reader with timestamps makes of an unquoted `2026-12-01` or
 * `2026-12-01T10:00:00Z` (ours keeps them as text, JSON_SCHEMA, but a file may come through
 * another reader). Written back as a date the strict parser reads: a bare day as that day (YAML
 * puts it at UTC midnight), anything else as the exact instant.
 */
function dateText(value: Date): string {
  if (Number.isNaN(value.getTime())) return '';
  const iso = value.toISOString();
  if (iso.endsWith('T00:00:00.000Z')) return iso.slice(0, 10);
  return iso.replace('.000Z', 'Z');
}

function toText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return dateText(value);
  if (Array.isArray(value)) return value.join(', ');
  return String(value).trim();
}

function toInt(value: unknown, fallback: number, min: number, max: number): number {
  const n = typeof value === 'number' ? value : Number.parseInt(toText(value), 10);
  if (!Number.isFinite(n)) return fallback;
  return Math.max(min, Math.min(max, Math.round(n)));
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  const text = toText(value);
  return (allowed as readonly string[]).includes(text) ? (text as T) : fallback;
}

/** First meaningful line of a body, for files that have no summary. */
export function gistOf(body: string, max = 120): string {
  for (const raw of body.split(/\r?\n/)) {
    const line = raw
      .replace(/^#+\s*/, '')
      .replace(/^(主旨|gist)\s*[:：]\s*/i, '')
      .trim();
    if (line) return line.length > max ? `${line.slice(0, max - 1)}…` : line;
  }
  return '';
}

export interface MemoryContext {
  /** The category the file's folder says; wins over a disagreeing frontmatter value. */
  folderCategory?: MemoryCategory;
  /** The file name without `.md`, used when the frontmatter has no id. */
  fileId?: string;
  /** ISO time of the file's mtime, used when the frontmatter has no `created`. */
  fileTime?: string;
}

/**
 * Read a memory file's text. Missing fields get defaults (MEM-2) and unknown keys are kept in
 * `extra`, so files written by the original role scripts load unchanged and survive a rewrite.
 * Throws an Error with a readable message when the text cannot be a memory.
 */
export function parseMemory(text: string, context: MemoryContext = {}): Memory {
  if (text.includes('\u0000')) throw new Error('the file contains NUL bytes (binary data, not a memory)');
  if (!text.trim()) throw new Error('the file is empty');
  const { data, body } = parseFrontmatter(text);
  const fmCategory = toText(data.category);
  const category: MemoryCategory = context.folderCategory ?? (isCategory(fmCategory) ? fmCategory : 'other');
  const rawType = toText(data.memory_type ?? data.type);
  const memory_type: MemoryType = isMemoryType(rawType) ? rawType : TYPE_BY_CATEGORY[category];
  const priority = toInt(data.priority, 3, 1, 5);
  const created = toText(data.created ?? data.first_seen) || context.fileTime || '';
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (!KNOWN.has(key)) extra[key] = value;
  }
  return {
    id: toText(data.id) || context.fileId || '',
    category,
    summary: toText(data.summary ?? data.title) || gistOf(body),
    tags: toStringList(data.tags ?? data.topics),
    priority,
    cues: toStringList(data.cues),
    expires: toText(data.expires),
    relevance: toStringList(data.relevance),
    links: toStringList(data.links),
    memory_type,
    declarative: oneOf<Declarative>(data.declarative, DECLARATIVE, defaultDeclarative(memory_type)),
    retention_stage: oneOf<RetentionStage>(data.retention_stage, RETENTION_STAGES, category === 'inbox' ? 'working' : 'long_term'),
    sleep_stage: oneOf<SleepStage>(data.sleep_stage, SLEEP_STAGES, category === 'inbox' ? 'encoding' : 'nrem-rem'),
    created,
    updated: toText(data.updated ?? data.last_seen) || created,
    last_replayed: toText(data.last_replayed),
    hits: toInt(data.hits ?? data.recall_count, 0, 0, Number.MAX_SAFE_INTEGER),
    strength: toInt(data.strength, defaultStrength(priority), 0, 100),
    body: body.replace(/^\r?\n+/, '').replace(/\s+$/, ''),
    extra,
  };
}

export function serializeMemory(memory: Memory): string {
  const data: Record<string, unknown> = {
    id: memory.id,
    category: memory.category,
    summary: memory.summary,
    tags: memory.tags,
    priority: memory.priority,
    cues: memory.cues,
    expires: memory.expires || null,
    relevance: memory.relevance,
    links: memory.links,
    memory_type: memory.memory_type,
    declarative: memory.declarative,
    retention_stage: memory.retention_stage,
    sleep_stage: memory.sleep_stage,
    created: memory.created,
    updated: memory.updated,
    last_replayed: memory.last_replayed || null,
    hits: memory.hits,
    strength: memory.strength,
  };
  for (const [key, value] of Object.entries(memory.extra)) {
    if (!(key in data)) data[key] = value;
  }
  return stringifyFrontmatter(data, memory.body ? `${memory.body}\n` : '');
}

/**
 * A new memory id: time first so ids sort by creation, then random bits so two machines
 * sharing one memory through git (X-SYNC) never pick the same id.
 */
export function newMemoryId(now: Date): string {
  return `${formatCompactDateTime(now)}-${randomBytes(3).toString('hex')}`;
}

/** Safe file names for ids we did not make (imported files may carry anything). */
export function fileNameForId(id: string): string {
  const safe = id
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 120);
  return `${safe || 'memory'}.md`;
}
