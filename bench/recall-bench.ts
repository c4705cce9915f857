import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { systemClock } from '../main/core/platform/config/clock.js';
import { openMemoryIndex } from '../main/core/store/index/memory-index.js';
import { recall } from '../main/core/store/index/recall.js';
import { reindexMemories } from '../main/core/store/index/reindex.js';
import { createReindexProgress } from '../main/core/store/index/reindex-progress.js';
import { percentile, round, timeMs } from './bench-stats.js';
import { recallByFileScan } from './file-scan-recall.js';
import { benchQueries, generateMemories } from './generate-memories.js';
import { writeBenchResults } from './bench-results.js';
import { compareRecall, type ComparedSize } from './recall-compare.js';

/**
 * X-SEARCH / X-PERF: recall from the SQLite index against the file scan it replaced, and a full
 * reindex. Targets at 100k memories: p50 ≤ 5 ms, p95 ≤ 15 ms, ≥ 50× the scan, reindex ≤ 60 s.
 * Design notes: docs/design-notes.md, "bench/recall-bench.ts".
 */
const ROLE = 'BENCH01';
const LIMIT = 5;
const WARMUP_QUERIES = 20;
const WRITE_BACK_QUERIES = 50;

interface SizeResult {
  size: number;
  reindexSeconds: number;
  indexed: number;
  problems: number;
  indexQueries: number;
  indexP50Ms: number;
  indexP95Ms: number;
  writeBackQueries: number;
  writeBackP50Ms: number;
  scanQueries: number;
  scanP50Ms: number;
  scanOverIndex: number;
}

function benchSize(size: number, queries: string[], scanQueries: number): SizeResult {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-bench-'));
  try {
    const memoryHome = path.join(root, 'memory');
    process.stderr.write(`\n[${size}] generating memories…\n`);
    generateMemories(memoryHome, ROLE, size);
    const index = openMemoryIndex({ memoryHome, indexFile: path.join(memoryHome, '.kioku', 'index.sqlite') });
    try {
      const progress = createReindexProgress(process.stderr, `[${size}] reindex`);
      const report = reindexMemories(index, 'all', progress.update);
      progress.stop();

      const run = (query: string, writeBack: boolean) => recall(index, { role: ROLE, query, limit: LIMIT, clock: systemClock, writeBack });
      for (const query of queries.slice(0, WARMUP_QUERIES)) run(query, false);
      const indexTimes = queries.map((query) => timeMs(() => run(query, false)));
      const writeBackTimes = queries.slice(0, WRITE_BACK_QUERIES).map((query) => timeMs(() => run(query, true)));
      process.stderr.write(`[${size}] scanning the files for ${scanQueries} queries…\n`);
      const scanTimes = queries.slice(0, scanQueries).map((query) => timeMs(() => recallByFileScan(memoryHome, ROLE, query, LIMIT)));

      const indexP50Ms = percentile(indexTimes, 50);
      const scanP50Ms = percentile(scanTimes, 50);
      return {
        size,
        reindexSeconds: round(report.seconds),
        indexed: report.indexed,
        problems: report.problems.length,
        indexQueries: indexTimes.length,
        indexP50Ms: round(indexP50Ms),
        indexP95Ms: round(percentile(indexTimes, 95)),
        writeBackQueries: writeBackTimes.length,
        writeBackP50Ms: round(percentile(writeBackTimes, 50)),
        scanQueries: scanTimes.length,
        scanP50Ms: round(scanP50Ms),
        scanOverIndex: round(scanP50Ms / indexP50Ms, 0),
      };
    } finally {
      index.close();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function table(results: SizeResult[]): string {
  const header = ['memories', 'reindex s', 'index p50 ms', 'index p95 ms', 'p50 with write-back ms', 'scan p50 ms', 'scan/index'];
  const rows = results.map((r) =>
    [r.size, r.reindexSeconds, r.indexP50Ms, r.indexP95Ms, r.writeBackP50Ms, r.scanP50Ms, `${r.scanOverIndex}×`].map(String),
  );
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  return [header, ...rows].map((row) => row.map((cell, i) => cell.padStart(widths[i]!)).join('  ')).join('\n');
}

function verdicts(results: SizeResult[]): string[] {
  const large = results.find((r) => r.size === 100_000);
  if (!large) return ['(targets are stated for 100000 memories; add it to --sizes to check them)'];
  const check = (ok: boolean, text: string) => `${ok ? 'PASS' : 'FAIL'}  ${text}`;
  return [
    check(large.indexP50Ms <= 5, `recall p50 from the index ${large.indexP50Ms} ms ≤ 5 ms`),
    check(large.indexP95Ms <= 15, `recall p95 from the index ${large.indexP95Ms} ms ≤ 15 ms`),
    check(large.scanOverIndex >= 50, `index ${large.scanOverIndex}× faster than the file scan (≥ 50×)`),
    check(large.reindexSeconds <= 60, `full reindex ${large.reindexSeconds} s ≤ 60 s`),
  ];
}

function writeResults(results: SizeResult[], queryCount: number, compared: { checkout: string; sizes: ComparedSize[] } | null): string {
  return writeBenchResults('recall', { queryCount, limit: LIMIT, results, compared });
}

function comparedTable(checkout: string, sizes: ComparedSize[]): string {
  const header = ['memories', 'queries', 'p50 ms', 'p95 ms', 'other p50 ms', 'other p95 ms', 'p50 / other'];
  const rows = sizes.map((c) => [c.size, c.queries, c.p50Ms, c.p95Ms, c.otherP50Ms, c.otherP95Ms, `${c.ratio.toFixed(2)}×`].map(String));
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const lines = [header, ...rows].map((row) => row.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
  return `side by side with ${checkout} (each query asked of both in turn, both orders):\n${lines.join('\n')}`;
}

export async function runRecallBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      sizes: { type: 'string', default: '10000,100000' },
      queries: { type: 'string', default: '200' },
      'scan-queries': { type: 'string' },
      compare: { type: 'string' },
    },
  });
  const sizes = values.sizes.split(',').map((s) => Number(s.trim()));
  const queryCount = Number(values.queries);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(queryCount) || queryCount < 1) {
    throw new Error('--sizes takes whole numbers (e.g. 10000,100000) and --queries a whole number');
  }
  const queries = benchQueries(queryCount);
  const results: SizeResult[] = [];
  for (const size of sizes) {
    // A scan of 100k files takes seconds per query: a few queries give a fair median.
    const scanQueries = Math.min(queryCount, Number(values['scan-queries'] ?? (size >= 50_000 ? 5 : 20)));
    results.push(benchSize(size, queries, scanQueries));
  }
  process.stdout.write(
    `\nrecall bench (limit ${LIMIT}, ${queryCount} queries; scan: ${results.map((r) => r.scanQueries).join('/')} queries)\n`,
  );
  process.stdout.write(`${table(results)}\n\n${verdicts(results).join('\n')}\n`);
  // --compare <checkout>: another build's recall against this one's, side by side (recall-compare.ts).
  let compared: { checkout: string; sizes: ComparedSize[] } | null = null;
  if (values.compare) {
    const ownDist = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
    const checkout = path.resolve(values.compare);
    const comparedSizes: ComparedSize[] = [];
    for (const size of sizes) {
      process.stderr.write(`\n[${size}] side by side with ${checkout}…\n`);
      comparedSizes.push(await compareRecall(size, queries, LIMIT, ownDist, checkout));
    }
    compared = { checkout, sizes: comparedSizes };
    process.stdout.write(`\n${comparedTable(checkout, comparedSizes)}\n`);
  }
  process.stdout.write(`results: ${writeResults(results, queryCount, compared)}\n`);
}
