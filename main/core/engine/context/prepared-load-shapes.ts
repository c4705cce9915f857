import path from 'node:path';
import {
  DECLARATIVE,
  MEMORY_TYPES,
  RETENTION_STAGES,
  SLEEP_STAGES,
  type MemoryCategory,
  type MemoryLoadProblem,
  type StoredMemory,
} from '../../../../common/memory.js';

/**
 * Checks of what the prepared load and the parsed memories (prepared-load-file.ts,
 * parsed-memories-file.ts) read back from disk: a garbled or hand-made file must not reach the assembly.
 */
export const isString = (value: unknown): value is string => typeof value === 'string';
export const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);
export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);
export const oneOf = (values: readonly string[]) => (value: unknown) => isOneOf(value, values);

/**
 * A whole memory of one of these folders, in `roleDir`. Written out field by field, without
 * arrays or closures per call: a stale load checks 10,000 of these (parsed-memories-file.ts).
 */
export function isStoredMemory(value: unknown, roleDir: string, categories: readonly MemoryCategory[]): value is StoredMemory {
  if (!isPlainObject(value)) return false;
  const m = value;
  return (
    isString(m.category) &&
    categories.includes(m.category as MemoryCategory) &&
    isString(m.id) &&
    isString(m.summary) &&
    isString(m.expires) &&
    isString(m.created) &&
    isString(m.updated) &&
    isString(m.last_replayed) &&
    isString(m.body) &&
    isString(m.role) &&
    isString(m.path) &&
    isStrings(m.tags) &&
    isStrings(m.cues) &&
    isStrings(m.relevance) &&
    isStrings(m.links) &&
    isNumber(m.priority) &&
    isNumber(m.hits) &&
    isNumber(m.strength) &&
    isOneOf(m.memory_type, MEMORY_TYPES) &&
    isOneOf(m.declarative, DECLARATIVE) &&
    isOneOf(m.retention_stage, RETENTION_STAGES) &&
    isOneOf(m.sleep_stage, SLEEP_STAGES) &&
    isPlainObject(m.extra) &&
    isTwoBelow(m.path, roleDir)
  );
}

/**
 * `path.dirname(path.dirname(file)) === dir` for a file written as `<dir>/<folder>/<name>`, by
 * two native searches instead of two walks of `path.dirname` (a tenth of reading a prepared
 * load's 1,400 inbox memories). Stricter only for paths Kioku never writes (a trailing or doubled
 * separator, `/` on Windows): such a memory is refused, and the load computed from the files.
 */
export function isTwoBelow(file: string, dir: string): boolean {
  const start = dir.length + 1;
  if (!file.startsWith(dir) || file[dir.length] !== path.sep) return false;
  const sep = file.indexOf(path.sep, start);
  return sep > start && sep < file.length - 1 && file.indexOf(path.sep, sep + 1) === -1;
}

/**
 * `[index, value]` pairs of a column stored only where it has something (prepared-load-file.ts,
 * stored-memory-columns.ts): in index order, each for one of `count` entries and with a value of
 * its kind. The pairs as a map, or undefined when they are not so.
 */
export function indexedEntries<T>(value: unknown, count: number, isValue: (value: unknown) => boolean): Map<number, T> | undefined {
  if (!Array.isArray(value)) return undefined;
  const found = new Map<number, T>();
  let last = -1;
  for (const entry of value as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2 || !Number.isInteger(entry[0]) || !isValue(entry[1])) return undefined;
    const index = entry[0] as number;
    if (index <= last || index >= count) return undefined;
    last = index;
    found.set(index, entry[1] as T);
  }
  return found;
}

const isOneOf = (value: unknown, values: readonly string[]) => isString(value) && values.includes(value);

export const isProblem = (value: unknown): value is MemoryLoadProblem =>
  isPlainObject(value) && isString(value.path) && isString(value.message);
