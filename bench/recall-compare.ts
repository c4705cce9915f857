import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { percentile, round } from './bench-stats.js';
import { generateMemories } from './generate-memories.js';

/**
 * `npm run bench -- recall --compare <checkout>`: this checkout's recall and another's (built:
 * its dist/), side by side in one process — the same generated memories in two homes, one index
 * each, every query asked of both in turn (and in the other order in a second round), so that a
 * change in the machine's load touches both alike. For "no regression" claims (issue 14).
 * Design notes: docs/design-notes.md, "bench/recall-bench.ts".
 */
const ROLE = 'BENCH01';

interface RecallApi {
  open(memoryHome: string): { close(): void };
  reindex(index: unknown): void;
  recall(index: unknown, query: string, limit: number): void;
}

/** Where a checkout's build keeps each module: the layout moved once (main/core/index → main/core/store/index). */
const LAYOUTS = [
  { index: 'main/core/store/index', clock: 'main/core/platform/config' },
  { index: 'main/core/index', clock: 'main/core/config' },
];

async function recallApi(distRoot: string): Promise<RecallApi> {
  const layout = LAYOUTS.find((l) => fs.existsSync(path.join(distRoot, l.index, 'recall.js')));
  if (!layout) throw new Error(`recall bench: no built recall under ${distRoot} (run \`npm run build\` in that checkout)`);
  const load = async (rel: string) => (await import(pathToFileURL(path.join(distRoot, rel)).href)) as Record<string, unknown>;
  const { openMemoryIndex } = (await load(`${layout.index}/memory-index.js`)) as {
    openMemoryIndex(paths: { memoryHome: string; indexFile: string }): { close(): void };
  };
  const { reindexMemories } = (await load(`${layout.index}/reindex.js`)) as {
    reindexMemories(index: unknown, roles: 'all', p: () => void): void;
  };
  const { recall } = (await load(`${layout.index}/recall.js`)) as { recall(index: unknown, options: Record<string, unknown>): void };
  const { systemClock } = (await load(`${layout.clock}/clock.js`)) as { systemClock: unknown };
  return {
    open: (memoryHome) => openMemoryIndex({ memoryHome, indexFile: path.join(memoryHome, '.kioku', 'index.sqlite') }),
    reindex: (index) => reindexMemories(index, 'all', () => undefined),
    recall: (index, query, limit) => recall(index, { role: ROLE, query, limit, clock: systemClock, writeBack: false }),
  };
}

export interface ComparedSize {
  size: number;
  queries: number;
  p50Ms: number;
  p95Ms: number;
  otherP50Ms: number;
  otherP95Ms: number;
  /** This checkout's p50 over the other's. */
  ratio: number;
}

export async function compareRecall(
  size: number,
  queries: string[],
  limit: number,
  ownDist: string,
  otherCheckout: string,
): Promise<ComparedSize> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-recall-compare-'));
  const sides = [
    { api: await recallApi(ownDist), times: [] as number[] },
    { api: await recallApi(path.join(path.resolve(otherCheckout), 'dist')), times: [] as number[] },
  ];
  const opened: Array<{ close(): void }> = [];
  try {
    const indexes = sides.map((side, i) => {
      const memoryHome = path.join(root, `home-${i}`, 'memory');
      generateMemories(memoryHome, ROLE, size); // seeded: the same memories in both homes
      const index = side.api.open(memoryHome);
      opened.push(index);
      side.api.reindex(index);
      return index;
    });
    const ask = (i: number, query: string) => {
      const started = performance.now();
      sides[i]!.api.recall(indexes[i], query, limit);
      return performance.now() - started;
    };
    for (const query of queries.slice(0, 20)) [0, 1].forEach((i) => ask(i, query)); // warm-up, untimed
    for (const order of [
      [0, 1],
      [1, 0],
    ])
      for (const query of queries) for (const i of order) sides[i]!.times.push(ask(i, query));
    const [own, other] = sides.map((side) => ({ p50: percentile(side.times, 50), p95: percentile(side.times, 95) }));
    return {
      size,
      queries: sides[0]!.times.length,
      p50Ms: round(own!.p50),
      p95Ms: round(own!.p95),
      otherP50Ms: round(other!.p50),
      otherP95Ms: round(other!.p95),
      ratio: round(own!.p50 / other!.p50),
    };
  } finally {
    for (const index of opened) index.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
