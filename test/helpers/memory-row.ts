import type { MemoryRow } from '../../main/core/store/index/memory-rows.js';

/** An index row of role R's daily folder for tests that write the index directly (memory-rows.ts). */
export function memoryRowFor(id: string, fields: Partial<MemoryRow> = {}): MemoryRow {
  return {
    role: 'R',
    category: 'daily',
    path: `R/daily/${id}.md`,
    id,
    summary: '',
    tags: '',
    cues: '',
    memory_type: 'episodic',
    priority: 3,
    hits: 0,
    strength: 50,
    expires: '',
    relevance: '',
    links: '',
    created: '',
    updated: '',
    last_replayed: '',
    mtime_ms: 0,
    size: 0,
    body_preview: '',
    projects: '',
    project_specific: 0,
    ...fields,
  };
}
