import path from 'node:path';
import {
  DECLARATIVE,
  MEMORY_TYPES,
  RETENTION_STAGES,
  SLEEP_STAGES,
  type MemoryCategory,
  type StoredMemory,
} from '../../../../common/memory.js';
import { isNumber, isPlainObject, isString, isTwoBelow } from './prepared-load-shapes.js';

/**
 * A list of whole memories as a prepared load stores them (prepared-load-file.ts): one array per
 * field instead of one object per memory, paths relative to the role's folder.
 *
 * Why: a load at 10,000 memories carries about 1,400 inbox memories, and as objects their 22 key
 * names were two fifths of the file, each parsed 1,400 times, and checking each object field by
 * field was a sixth of reading it back. As columns the names appear once, each column is checked
 * in one pass over an array of one kind, and the objects are built here, all of one shape.
 */
export interface MemoryColumns {
  count: number;
  id: string[];
  category: string[];
  summary: string[];
  tags: string[][];
  priority: number[];
  cues: string[][];
  expires: string[];
  relevance: string[][];
  links: string[][];
  memory_type: string[];
  declarative: string[];
  retention_stage: string[];
  sleep_stage: string[];
  created: string[];
  updated: string[];
  last_replayed: string[];
  hits: number[];
  strength: number[];
  body: string[];
  /** Only the memories with fields Kioku does not know (most have none), by index. */
  extra: Array<[index: number, extra: Record<string, unknown>]>;
  role: string[];
  /** Relative to the role's folder when inside it (always, for a memory that is used). */
  path: string[];
}

type Column = Exclude<keyof MemoryColumns, 'count' | 'extra'>;

const isStrings = (value: unknown) => Array.isArray(value) && value.every(isString);
const oneOf = (values: readonly string[]) => (value: unknown) => isString(value) && values.includes(value);

/** Each column and what each of its values must be. */
const COLUMNS: ReadonlyArray<[Column, (value: unknown) => boolean]> = [
  ['id', isString],
  ['category', isString],
  ['summary', isString],
  ['tags', isStrings],
  ['priority', isNumber],
  ['cues', isStrings],
  ['expires', isString],
  ['relevance', isStrings],
  ['links', isStrings],
  ['memory_type', oneOf(MEMORY_TYPES)],
  ['declarative', oneOf(DECLARATIVE)],
  ['retention_stage', oneOf(RETENTION_STAGES)],
  ['sleep_stage', oneOf(SLEEP_STAGES)],
  ['created', isString],
  ['updated', isString],
  ['last_replayed', isString],
  ['hits', isNumber],
  ['strength', isNumber],
  ['body', isString],
  ['role', isString],
  ['path', isString],
];

export function toMemoryColumns(memories: readonly StoredMemory[], roleDir: string): MemoryColumns {
  const prefix = roleDir + path.sep;
  const columns = { count: memories.length, extra: [] } as unknown as MemoryColumns;
  for (const [name] of COLUMNS) (columns[name] as unknown[]) = memories.map((memory) => memory[name]);
  columns.path = memories.map((memory) => (memory.path.startsWith(prefix) ? memory.path.slice(prefix.length) : memory.path));
  memories.forEach((memory, i) => {
    if (Object.keys(memory.extra).length > 0) columns.extra.push([i, memory.extra]);
  });
  return columns;
}

/**
 * The memories back, each a fresh object with its whole path; undefined when anything is not as
 * written (a column missing, short or of the wrong kind, a folder not allowed, a path that is not
 * a file two below `roleDir`): such a file is as good as none.
 */
export function fromMemoryColumns(value: unknown, roleDir: string, categories: readonly MemoryCategory[]): StoredMemory[] | undefined {
  if (!isPlainObject(value) || !Number.isSafeInteger(value.count) || (value.count as number) < 0) return undefined;
  const count = value.count as number;
  for (const [name, isValue] of COLUMNS) {
    const column = value[name];
    if (!Array.isArray(column) || column.length !== count || !column.every(isValue)) return undefined;
  }
  const c = value as unknown as MemoryColumns;
  if (!c.category.every((category) => categories.includes(category as MemoryCategory))) return undefined;
  const extras = new Map<number, Record<string, unknown>>();
  if (!Array.isArray(c.extra)) return undefined;
  for (const entry of c.extra as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2 || !Number.isInteger(entry[0]) || !isPlainObject(entry[1])) return undefined;
    const index = entry[0] as number;
    if (index < 0 || index >= count || extras.has(index)) return undefined;
    extras.set(index, entry[1]);
  }
  const memories: StoredMemory[] = [];
  for (let i = 0; i < count; i++) {
    const relative = c.path[i]!;
    const file = path.isAbsolute(relative) ? relative : roleDir + path.sep + relative;
    if (!isTwoBelow(file, roleDir)) return undefined;
    // Written out in the order memory-file.ts gives a memory its fields: every object one shape.
    memories.push({
      id: c.id[i]!,
      category: c.category[i] as MemoryCategory,
      summary: c.summary[i]!,
      tags: c.tags[i]!,
      priority: c.priority[i]!,
      cues: c.cues[i]!,
      expires: c.expires[i]!,
      relevance: c.relevance[i]!,
      links: c.links[i]!,
      memory_type: c.memory_type[i] as StoredMemory['memory_type'],
      declarative: c.declarative[i] as StoredMemory['declarative'],
      retention_stage: c.retention_stage[i] as StoredMemory['retention_stage'],
      sleep_stage: c.sleep_stage[i] as StoredMemory['sleep_stage'],
      created: c.created[i]!,
      updated: c.updated[i]!,
      last_replayed: c.last_replayed[i]!,
      hits: c.hits[i]!,
      strength: c.strength[i]!,
      body: c.body[i]!,
      extra: extras.get(i) ?? {},
      role: c.role[i]!,
      path: file,
    });
  }
  return memories;
}
