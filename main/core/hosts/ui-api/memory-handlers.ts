import { KiokuError } from '../../../../common/errors.js';
import { hasWarmth, type MemoryLoadProblem, type StoredMemory } from '../../../../common/memory.js';
import type {
  MemoryDetail,
  MemoryList,
  MemoryListItem,
  MemorySearchResult,
  MemoryTimeStats,
  UiParsedRequest,
} from '../../../../common/ui-contract.js';
import { parseLooseDate } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { memoryClarity, splitGist } from '../../store/memory/memory-clarity.js';
import { createMemoryCache, type MemoryCache } from '../../store/memory/memory-cache.js';
import { listMemoryRoles } from '../../store/memory/memory-layout.js';
import { isPinned } from '../../store/memory/pinned.js';
import { isSuperseded } from '../../store/memory/superseded.js';
import { memoryTimeStats } from './memory-time-stats.js';

/**
 * The timeline's channels (APP-2): every memory and inbox item over time, with filters, search,
 * detail, links and clarity (PM-2).
 * Design notes: docs/design-notes.md, "main/core/hosts/ui-api/memory-handlers.ts".
 */
export interface MemoryHandlers {
  list(request: UiParsedRequest<'memories.list'>): MemoryList;
  search(request: UiParsedRequest<'memories.search'>): Promise<MemorySearchResult>;
  get(request: UiParsedRequest<'memories.get'>): MemoryDetail;
  stats(request: UiParsedRequest<'memories.stats'>): MemoryTimeStats;
  /** The parsed memories these handlers keep, shared with the next-session preview (same files, parsed once). */
  memoryCache(): MemoryCache;
}

const DEFAULT_SEARCH_LIMIT = 100;

/** Newest first: by `created`, then `updated`; memories without a readable date go last. */
function timeOf(memory: StoredMemory): number {
  return parseLooseDate(memory.created)?.getTime() ?? parseLooseDate(memory.updated)?.getTime() ?? Number.NEGATIVE_INFINITY;
}

interface Dated {
  memory: StoredMemory;
  time: number;
}

/** The sorted list is kept with the cache's frozen snapshot it came from (same files, same order). */
const sortedBySnapshot = new WeakMap<readonly StoredMemory[], Dated[]>();

function newestFirst(memories: readonly StoredMemory[]): Dated[] {
  let sorted = sortedBySnapshot.get(memories);
  if (!sorted) {
    sorted = memories
      .map((memory) => ({ memory, time: timeOf(memory) }))
      .sort((a, b) => b.time - a.time || b.memory.id.localeCompare(a.memory.id));
    sortedBySnapshot.set(memories, sorted);
  }
  return sorted;
}

export function toListItem(memory: StoredMemory, now: Date): MemoryListItem {
  return {
    id: memory.id,
    role: memory.role,
    category: memory.category,
    memory_type: memory.memory_type,
    priority: memory.priority,
    summary: memory.summary,
    tags: [...memory.tags],
    created: memory.created,
    updated: memory.updated,
    // PM-2 applies to consolidated memories; the inbox is working memory (memory-stats.ts).
    clarity: memory.category === 'inbox' ? null : memoryClarity(memory, now),
    links: memory.links.length,
    warm: hasWarmth(memory),
    ...(isPinned(memory) ? { pinned: true } : {}),
    ...(isSuperseded(memory) ? { superseded: true } : {}),
  };
}

/** Local midnight of a `yyyy-MM-dd`, in ms; `endOf` gives the next midnight (exclusive bound). */
function dayBound(date: string | undefined, endOf: boolean): number | undefined {
  if (!date) return undefined;
  const start = parseLooseDate(date);
  if (!start) throw new KiokuError('BAD_USAGE', `"${date}" is not a date (yyyy-MM-dd)`, { hint: 'e.g. 2026-11-30' });
  if (!endOf) return start.getTime();
  return new Date(start.getFullYear(), start.getMonth(), start.getDate() + 1).getTime();
}

export function createMemoryHandlers(config: KiokuConfig, logger: Logger): MemoryHandlers {
  let cache: MemoryCache | undefined;
  const memoryHome = config.paths.memoryHome;

  const rolesFor = (role: string | undefined): string[] => (role ? [role] : listMemoryRoles(memoryHome));

  /** Every memory of the roles asked for, newest first, and how many files could not be read. */
  const load = (role: string | undefined): { dated: Dated[]; problems: MemoryLoadProblem[] } => {
    cache ??= createMemoryCache(memoryHome);
    const problems: MemoryLoadProblem[] = [];
    const perRole = rolesFor(role).map((id) => {
      const loaded = cache!.load(id);
      problems.push(...loaded.problems);
      return newestFirst(loaded.memories);
    });
    if (perRole.length === 1) return { dated: perRole[0]!, problems };
    const dated = perRole
      .flat()
      .sort((a, b) => b.time - a.time || a.memory.role.localeCompare(b.memory.role) || b.memory.id.localeCompare(a.memory.id));
    return { dated, problems };
  };

  const logProblems = (problems: MemoryLoadProblem[]) => {
    if (problems.length)
      logger.warn('web', `${problems.length} memory file(s) could not be read, e.g. ${problems[0]!.path}: ${problems[0]!.message}`);
  };

  const list = (request: UiParsedRequest<'memories.list'>): MemoryList => {
    const now = config.clock.now();
    const { dated, problems } = load(request.role);
    logProblems(problems);
    const categories = request.categories?.length ? new Set<string>(request.categories) : undefined;
    const types = request.types?.length ? new Set<string>(request.types) : undefined;
    const clarity = request.clarity?.length ? new Set<string>(request.clarity) : undefined;
    const from = dayBound(request.from, false);
    const to = dayBound(request.to, true);
    const items: MemoryListItem[] = [];
    let total = 0;
    const end = request.offset + request.limit;
    for (const { memory, time } of dated) {
      if (categories && !categories.has(memory.category)) continue;
      if (types && !types.has(memory.memory_type)) continue;
      if (from !== undefined && !(time >= from)) continue;
      if (to !== undefined && !(time < to)) continue;
      // Clarity is computed only when it decides something or the row is on the page.
      if (clarity && (memory.category === 'inbox' || !clarity.has(memoryClarity(memory, now)))) continue;
      if (total >= request.offset && total < end) items.push(toListItem(memory, now));
      total += 1;
    }
    return { items, total, offset: request.offset, unreadable: problems.length };
  };

  const findMemory = (role: string, id: string): { memory: StoredMemory; all: readonly StoredMemory[] } => {
    const { dated } = load(role);
    const found = dated.find((entry) => entry.memory.id === id);
    if (!found) {
      throw new KiokuError('NOT_FOUND', `no memory "${id}" in ${role}'s memories`, {
        hint: 'it may have been merged, forgotten or archived by a consolidation; reload the timeline',
      });
    }
    return { memory: found.memory, all: dated.map((entry) => entry.memory) };
  };

  const get = (request: UiParsedRequest<'memories.get'>): MemoryDetail => {
    const now = config.clock.now();
    const { memory, all } = findMemory(request.role, request.id);
    const byId = new Map(all.map((other) => [other.id, other]));
    const { gist, detail } = splitGist(memory.body);
    return {
      ...toListItem(memory, now),
      body: memory.body.trim(),
      gist,
      detail,
      links_resolved: memory.links.map((link) => {
        const target = byId.get(link);
        return target
          ? { id: link, found: true, summary: target.summary, category: target.category, memory_type: target.memory_type }
          : { id: link, found: false };
      }),
      cues: [...memory.cues],
      relevance: [...memory.relevance],
      expires: memory.expires,
      strength: memory.strength,
      hits: memory.hits,
      last_replayed: memory.last_replayed,
      declarative: memory.declarative,
      retention_stage: memory.retention_stage,
      sleep_stage: memory.sleep_stage,
    };
  };

  const search = async (request: UiParsedRequest<'memories.search'>): Promise<MemorySearchResult> => {
    const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
    // SQLite and OpenCC load on the first search, not when the app starts.
    const { searchMemoriesReadOnly } = await import('./memory-search.js');
    const { hits, query } = await searchMemoriesReadOnly(config, logger, { query: request.query, roles: rolesFor(request.role), limit });
    const now = config.clock.now();
    const problems: MemoryLoadProblem[] = [];
    const items: MemoryListItem[] = [];
    const byRole = new Map<string, Map<string, StoredMemory>>();
    for (const hit of hits) {
      let memories = byRole.get(hit.role);
      if (!memories) {
        const loaded = load(hit.role);
        problems.push(...loaded.problems);
        memories = new Map(loaded.dated.map((entry) => [entry.memory.id, entry.memory]));
        byRole.set(hit.role, memories);
      }
      // The index may be a moment behind the files: a hit whose file is gone is left out.
      const memory = memories.get(hit.id);
      if (memory) items.push({ ...toListItem(memory, now), score: hit.score });
    }
    return { items, query, unreadable: problems.length };
  };

  const stats = (request: UiParsedRequest<'memories.stats'>): MemoryTimeStats => {
    const { dated } = load(request.role);
    return memoryTimeStats(
      dated.map((entry) => entry.memory),
      request.role ?? null,
      config.clock.now(),
    );
  };

  const memoryCache = (): MemoryCache => (cache ??= createMemoryCache(memoryHome));
  return { list, search, get, stats, memoryCache };
}
