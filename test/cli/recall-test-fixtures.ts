import fs from 'node:fs';
import path from 'node:path';
import type { MemoryCategory } from '../../common/memory.js';
import { stringifyFrontmatter } from '../../main/core/platform/frontmatter/stringify-frontmatter.js';

/** Memory files as seed 000's scripts and people write them, for the index and recall tests. */
export const ROLE = 'ENGINEER01';

export interface FixtureMemory {
  id: string;
  summary?: string;
  body?: string;
  tags?: string[];
  cues?: string[];
  memory_type?: string;
  priority?: number;
  expires?: string;
  /** Any other frontmatter key (kept verbatim by a rewrite). */
  [key: string]: unknown;
}

export function memoryPath(memoryHome: string, category: MemoryCategory, id: string, role = ROLE): string {
  return path.join(memoryHome, role, category, `${id}.md`);
}

/** Write a memory file directly (not through Kioku), returning its path. */
export function writeMemory(memoryHome: string, category: MemoryCategory, memory: FixtureMemory, role = ROLE): string {
  const { body = '', ...frontmatter } = memory;
  const file = memoryPath(memoryHome, category, memory.id, role);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, stringifyFrontmatter({ category, ...frontmatter }, body));
  return file;
}
