import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { openMemoryIndex } from '../../store/index/memory-index.js';
import { recall, type RecalledMemory } from '../../store/index/recall.js';
import { recallQueryInStoredScript } from '../../store/index/recall-query-script.js';

/**
 * The timeline's search box over the SQLite index (X-SEARCH: trigram/segmented, so `部署` finds
 * `上週部署到正式環境` with no spaces), loaded on the first search only (memory-handlers.ts
 * imports it dynamically). `writeBack: false`: the user looking something up is not the role
 * remembering it, so no hits, strength or last_replayed are written (PM-2 is about the role).
 * The query goes through the same Simplified→Traditional guard as stored text (`部署` typed as
 * `部署`, `头发` finds `頭髮`), as `kioku memory recall` does.
 */
export interface SearchHit {
  role: string;
  id: string;
  score: number;
}

export async function searchMemoriesReadOnly(
  config: KiokuConfig,
  logger: Logger,
  request: { query: string; roles: string[]; limit: number },
): Promise<{ hits: SearchHit[]; query: string }> {
  const query = await recallQueryInStoredScript(request.query.trim());
  const index = openMemoryIndex(config.paths, logger);
  try {
    const found: RecalledMemory[] = [];
    for (const role of request.roles) {
      const result = recall(index, { role, query, limit: request.limit, clock: config.clock, writeBack: false });
      found.push(...result.memories);
    }
    // Scores are comparable across roles (one index, one ranking), so the best of all come first.
    found.sort((a, b) => b.score - a.score || a.role.localeCompare(b.role));
    return { hits: found.slice(0, request.limit).map(({ role, id, score }) => ({ role, id, score })), query };
  } finally {
    index.close();
  }
}
