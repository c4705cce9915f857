import fs from 'node:fs';
import type { Memory } from '../../../../common/memory.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { parseMemory, serializeMemory, type MemoryContext } from './memory-file.js';

/**
 * Read a memory file, change it, write it back atomically. Unknown frontmatter keys survive
 * (they ride along in `extra`). Returns the written memory, or undefined when `mutate` returned
 * false (nothing to change: the file is left untouched, mtime included).
 */
export function rewriteMemoryFile(file: string, context: MemoryContext, mutate: (memory: Memory) => Memory | false): Memory | undefined {
  const text = fs.readFileSync(file, 'utf8');
  const current = parseMemory(text, context);
  const next = mutate(current);
  if (next === false) return undefined;
  writeFileAtomicSync(file, serializeMemory(next));
  return next;
}
