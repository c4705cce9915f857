import type { StoredMemory } from '../common/memory.js';
import { listMemoryFiles, readMemoryFile } from '../main/core/store/memory/memory-layout.js';

/**
 * Recall as the role skill's original scripts did it, before the index: read and parse every memory file of
 * the role and keep those whose text contains every word of the query. The baseline the index
 * is measured against (it has no ranking, which only flatters it).
 */
export function recallByFileScan(memoryHome: string, role: string, query: string, limit: number): StoredMemory[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const found: StoredMemory[] = [];
  for (const ref of listMemoryFiles(memoryHome, role)) {
    let memory: StoredMemory;
    try {
      memory = readMemoryFile(ref, role);
    } catch {
      continue;
    }
    const text = [memory.summary, memory.tags.join(' '), memory.cues.join(' '), memory.body].join('\n').toLowerCase();
    if (words.every((word) => text.includes(word))) found.push(memory);
  }
  return found.sort((a, b) => b.priority - a.priority).slice(0, limit);
}
