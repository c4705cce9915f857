import { ALL_CATEGORIES, MEMORY_TYPES, type MemoryCategory, type MemoryLoadProblem, type MemoryType } from '../../../../common/memory.js';
import { memoryClarity, type Clarity } from './memory-clarity.js';
import { loadRoleMemories } from './memory-layout.js';

/** CLI.md `memory stats --json`: counts per category (inbox included) and per memory_type. */
export interface MemoryStats {
  role: string;
  categories: Record<MemoryCategory, number>;
  types: Record<MemoryType, number>;
  total: number;
  /**
   * PM-2 made visible: how many consolidated memories are clear, faded or fuzzy now (the state
   * that decides what the role may say about them at load time). The inbox is left out: it is
   * working memory, loaded whole until sleep consolidates it, and clarity does not apply to it.
   */
  clarity: Record<Clarity, number>;
  /** Files that could not be read as memories; the others are still counted. */
  problems: MemoryLoadProblem[];
}

/**
 * Count a role's memories. Read-only: files are parsed, never rewritten, so files written by
 * the original role scripts keep their bytes and mtime. A corrupt file is listed in `problems`.
 * `now` is the config clock's time (KIOKU_NOW in tests), for clarity.
 */
export function memoryStats(memoryHome: string, role: string, now: Date = new Date()): MemoryStats {
  const { memories, problems } = loadRoleMemories(memoryHome, role);
  const categories = Object.fromEntries(ALL_CATEGORIES.map((c) => [c, 0])) as Record<MemoryCategory, number>;
  const types = Object.fromEntries(MEMORY_TYPES.map((t) => [t, 0])) as Record<MemoryType, number>;
  const clarity: Record<Clarity, number> = { clear: 0, faded: 0, fuzzy: 0 };
  for (const memory of memories) {
    categories[memory.category] += 1;
    types[memory.memory_type] += 1;
    if (memory.category !== 'inbox') clarity[memoryClarity(memory, now)] += 1;
  }
  return { role, categories, types, total: memories.length, clarity, problems };
}
