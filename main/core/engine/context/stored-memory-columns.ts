import path from 'node:path';
import {
  ALL_CATEGORIES,
  DECLARATIVE,
  MEMORY_TYPES,
  RETENTION_STAGES,
  SLEEP_STAGES,
  type MemoryCategory,
  type StoredMemory,
} from '../../../../common/memory.js';
import { indexedEntries, isNumber, isPlainObject, isString, isStrings, isTwoBelow } from './prepared-load-shapes.js';

/**
 * A list of whole memories as a prepared load stores them (prepared-load-file.ts): one array per
 * field instead of one object per memory.
 *
 * Why: a load at 10,000 memories carries about 1,400 inbox memories, and as objects their 22 key
 * names were a quarter of the file (two fifths of the inbox's part), and checking each object field by
 * field was a sixth of reading it back. As columns the names appear once, each column is checked
 * in one pass over an array of one kind, and the objects are built here, all of one shape. The
 * fields with a few known values are stored as indexes; those nearly always the same as something
 * else (the file's path, `updated`, the role) only where they differ.
 */
export interface MemoryColumns {
  count: number;
  id: string[];
  /** Indexes into ALL_CATEGORIES. */
  category: number[];
  summary: string[];
  tags: string[][];
  priority: number[];
  cues: string[][];
  expires: string[];
  relevance: string[][];
  links: string[][];
  /** Indexes into MEMORY_TYPES, DECLARATIVE, RETENTION_STAGES and SLEEP_STAGES. */
  memory_type: number[];
  declarative: number[];
  retention_stage: number[];
  sleep_stage: number[];
  created: string[];
  last_replayed: string[];
  hits: number[];
  strength: number[];
  body: string[];
  /** Where it is not `created`. */
  updated: Array<[index: number, updated: string]>;
  /** Only the memories with fields Kioku does not know (most have none). */
  extra: Array<[index: number, extra: Record<string, unknown>]>;
  /** Where it is not the role whose folder this is. */
  role: Array<[index: number, role: string]>;
  /** Where it is not `<category>/<id>.md` in the role's folder: relative to it when inside it. */
  path: Array<[index: number, path: string]>;
}

type Dense = 'id' | 'summary' | 'tags' | 'priority' | 'cues' | 'expires' | 'relevance' | 'links';
type DenseToo = 'created' | 'last_replayed' | 'hits' | 'strength' | 'body';
type Indexed = 'category' | 'memory_type' | 'declarative' | 'retention_stage' | 'sleep_stage';

/** Each column stored whole, and what each of its values must be. */
const DENSE: ReadonlyArray<[Dense | DenseToo, (value: unknown) => boolean]> = [
  ['id', isString],
  ['summary', isString],
  ['tags', isStrings],
  ['priority', isNumber],
  ['cues', isStrings],
  ['expires', isString],
  ['relevance', isStrings],
  ['links', isStrings],
  ['created', isString],
  ['last_replayed', isString],
  ['hits', isNumber],
  ['strength', isNumber],
  ['body', isString],
];

/** Each column stored as indexes, and the values they index. */
const INDEXED: ReadonlyArray<[Indexed, readonly string[]]> = [
  ['category', ALL_CATEGORIES],
  ['memory_type', MEMORY_TYPES],
  ['declarative', DECLARATIVE],
  ['retention_stage', RETENTION_STAGES],
  ['sleep_stage', SLEEP_STAGES],
];

const defaultPath = (memory: Pick<StoredMemory, 'category' | 'id'>, roleDir: string) =>
  roleDir + path.sep + memory.category + path.sep + memory.id + '.md';

export function toMemoryColumns(memories: readonly StoredMemory[], roleDir: string, roleId: string): MemoryColumns {
  const prefix = roleDir + path.sep;
  const columns = { count: memories.length, updated: [], extra: [], role: [], path: [] } as unknown as MemoryColumns;
  for (const [name] of DENSE) (columns[name] as unknown[]) = memories.map((memory) => memory[name]);
  for (const [name, values] of INDEXED) columns[name] = memories.map((memory) => values.indexOf(memory[name]));
  memories.forEach((memory, i) => {
    if (memory.updated !== memory.created) columns.updated.push([i, memory.updated]);
    if (Object.keys(memory.extra).length > 0) columns.extra.push([i, memory.extra]);
    if (memory.role !== roleId) columns.role.push([i, memory.role]);
    if (memory.path !== defaultPath(memory, roleDir))
      columns.path.push([i, memory.path.startsWith(prefix) ? memory.path.slice(prefix.length) : memory.path]);
  });
  return columns;
}

/**
 * The memories back, each a fresh object with its whole path; undefined when anything is not as
 * written (a column missing, short or of the wrong kind, a folder not allowed, a path that is not
 * a file two below `roleDir`): such a file is as good as none.
 */
export function fromMemoryColumns(
  value: unknown,
  roleDir: string,
  roleId: string,
  categories: readonly MemoryCategory[],
): StoredMemory[] | undefined {
  if (!isPlainObject(value) || !Number.isSafeInteger(value.count) || (value.count as number) < 0) return undefined;
  const count = value.count as number;
  for (const [name, isValue] of DENSE) {
    const column = value[name];
    if (!Array.isArray(column) || column.length !== count || !column.every(isValue)) return undefined;
  }
  for (const [name, values] of INDEXED) {
    const column = value[name];
    if (!Array.isArray(column) || column.length !== count) return undefined;
    if (!column.every((index) => Number.isInteger(index) && index >= 0 && index < values.length)) return undefined;
  }
  const c = value as unknown as MemoryColumns;
  const updated = indexedEntries<string>(c.updated, count, isString);
  const extras = indexedEntries<Record<string, unknown>>(c.extra, count, isPlainObject);
  const roles = indexedEntries<string>(c.role, count, isString);
  const paths = indexedEntries<string>(c.path, count, isString);
  if (!updated || !extras || !roles || !paths) return undefined;
  const memories: StoredMemory[] = [];
  for (let i = 0; i < count; i++) {
    const category = ALL_CATEGORIES[c.category[i]!]!;
    if (!categories.includes(category)) return undefined;
    const id = c.id[i]!;
    const stored = paths.get(i);
    const file =
      stored === undefined ? defaultPath({ category, id }, roleDir) : path.isAbsolute(stored) ? stored : roleDir + path.sep + stored;
    if (!isTwoBelow(file, roleDir)) return undefined;
    const created = c.created[i]!;
    // Written out in the order memory-file.ts gives a memory its fields: every object one shape.
    memories.push({
      id,
      category,
      summary: c.summary[i]!,
      tags: c.tags[i]!,
      priority: c.priority[i]!,
      cues: c.cues[i]!,
      expires: c.expires[i]!,
      relevance: c.relevance[i]!,
      links: c.links[i]!,
      memory_type: MEMORY_TYPES[c.memory_type[i]!]!,
      declarative: DECLARATIVE[c.declarative[i]!]!,
      retention_stage: RETENTION_STAGES[c.retention_stage[i]!]!,
      sleep_stage: SLEEP_STAGES[c.sleep_stage[i]!]!,
      created,
      updated: updated.get(i) ?? created,
      last_replayed: c.last_replayed[i]!,
      hits: c.hits[i]!,
      strength: c.strength[i]!,
      body: c.body[i]!,
      extra: extras.get(i) ?? {},
      role: roles.get(i) ?? roleId,
      path: file,
    });
  }
  return memories;
}
