import type { Memory } from '../../common/memory.js';

/**
 * A long-term memory as the loader gives it, for tests of selection and formatting: a daily,
 * semantic, priority-3 memory written on 2026-11-30 at 10:00 local time, with `fields` on top.
 */
export function memoryObject(id: string, fields: Partial<Memory> = {}): Memory {
  return {
    id,
    category: 'daily',
    summary: `summary ${id}`,
    tags: [],
    priority: 3,
    cues: [],
    expires: '',
    relevance: [],
    links: [],
    memory_type: 'semantic',
    declarative: 'explicit',
    retention_stage: 'long_term',
    sleep_stage: 'nrem-rem',
    created: '2026-11-30T10:00:00',
    updated: '2026-11-30T10:00:00',
    last_replayed: '',
    hits: 0,
    strength: 60,
    body: `body of ${id}`,
    extra: {},
    ...fields,
  };
}
