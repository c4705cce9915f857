import { SLOT_BYTES } from '../rank-pages.js';
import { SCORE_ONE_WORD_WASM_BASE64 } from './score-one-word-wasm.js';

/**
 * One word's bm25 over all its matches in WebAssembly (score-one-word.wat), for recall's own
 * ranking (recall-term-rank.ts, issue 17).
 *
 * Why not JavaScript: a CLI recall scores a common word's matches — 20,000 and more at 100,000
 * memories — once, in a fresh process. In V8's interpreter and baseline code each match cost
 * about half a microsecond and every floating-point result an allocation (several garbage
 * collections), and the loop was hot enough for V8 to start optimising it in the background,
 * work that finished after the loop had and that the process waited for before it could exit.
 * The module is 547 bytes, compiled at its first use in well under a millisecond, and runs the
 * same loop at native speed; the daemon, which keeps it, gets the same answer the same way.
 *
 * The scores are computed operation for operation as the JavaScript ranking computed them, in
 * the same double precision, so they are the same bits (recall-term-rank.test.ts compares them
 * with FTS5's bm25() on every query).
 */
export interface OneWordMatches {
  /** The matches' rowids, ascending. */
  docs: Int32Array;
  /** Each match's weighted frequency of the word. */
  freqs: Int32Array;
  /** Each match's rank slot (rank-pages.ts layout), SLOT_BYTES each, in the matches' order. */
  slots: Uint8Array;
  /** The role's code in the slots. */
  code: number;
}

export interface OneWordScoring {
  idf: number;
  avgdl: number;
  k1: number;
  b: number;
  /** Type weight by slot type index (0–7); undefined weighs 1. */
  typeWeights: readonly (number | undefined)[];
  priorityStep: number;
}

/** The matches that may make the answer, in rowid order, with their scores and whether each has an expiry to check. */
export interface ScoredCandidates {
  docs: Int32Array;
  scores: Float64Array;
  expiring: Uint8Array;
}

/**
 * The little of the WebAssembly API used here: Node's types declare it only with the DOM's
 * library, which the main process does not compile against.
 */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

interface WordScorer {
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  score(
    n: number,
    docs: number,
    freqs: number,
    slots: number,
    code: number,
    limit: number,
    top: number,
    outDocs: number,
    outScores: number,
    outExpiring: number,
    weights: number,
    priorities: number,
    idf: number,
    avgdl: number,
    k1: number,
    k1Plus1: number,
    oneMinusB: number,
    b: number,
  ): number;
}

const WASM_PAGE = 65536;
const TYPE_SLOTS = 8;
const PRIORITY_SLOTS = 16;

/**
 * Compiled at the first recall of a process and kept: the daemon's memory grows to its largest
 * word once. Null: this Node has no WebAssembly (`--jitless`), and the JavaScript loop ranks.
 */
let scorer: WordScorer | null | undefined;

function wordScorer(): WordScorer | null {
  if (scorer === undefined) {
    try {
      const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly!;
      const module = new api.Module(Buffer.from(SCORE_ONE_WORD_WASM_BASE64, 'base64'));
      scorer = new api.Instance(module, {}).exports as WordScorer;
    } catch {
      scorer = null;
    }
  }
  return scorer;
}

const align = (offset: number, to: number) => Math.ceil(offset / to) * to;

/**
 * The candidates among a role's matches: every match without an expiry among the `limit` best
 * of those, and every match with an expiry that scores at least the last of them (all matches
 * when there are fewer). The answer is the `limit` best of these once the expired are left out.
 * Undefined when a match has no slot (the caller ranks with SQL); 'unavailable' without
 * WebAssembly.
 */
export function scoreOneWord(
  matches: OneWordMatches,
  scoring: OneWordScoring,
  limit: number,
): ScoredCandidates | undefined | 'unavailable' {
  const wasm = wordScorer();
  if (!wasm) return 'unavailable';
  const { docs, freqs, slots, code } = matches;
  const n = docs.length;
  if (freqs.length !== n || slots.length !== n * SLOT_BYTES || limit < 1) return undefined;
  // The layout: two small tables, the best scores, the inputs, the outputs.
  const weights = 0;
  const priorities = weights + TYPE_SLOTS * 8;
  const top = priorities + PRIORITY_SLOTS * 8;
  const docsAt = align(top + limit * 8, 8);
  const freqsAt = docsAt + n * 4;
  const slotsAt = freqsAt + n * 4;
  const outDocs = slotsAt + n * SLOT_BYTES;
  const outScores = align(outDocs + n * 4, 8);
  const outExpiring = outScores + n * 8;
  const end = outExpiring + n;

  const missing = end - wasm.memory.buffer.byteLength;
  if (missing > 0) wasm.memory.grow(Math.ceil(missing / WASM_PAGE));
  const buffer = wasm.memory.buffer;
  const typeWeights = new Float64Array(buffer, weights, TYPE_SLOTS);
  for (let type = 0; type < TYPE_SLOTS; type += 1) typeWeights[type] = scoring.typeWeights[type] ?? 1;
  // The priority step as the JavaScript ranking wrote it: 1 + (priority - 3) × step.
  const steps = new Float64Array(buffer, priorities, PRIORITY_SLOTS);
  for (let priority = 0; priority < PRIORITY_SLOTS; priority += 1) steps[priority] = 1 + (priority - 3) * scoring.priorityStep;
  new Int32Array(buffer, docsAt, n).set(docs);
  new Int32Array(buffer, freqsAt, n).set(freqs);
  new Uint8Array(buffer, slotsAt, n * SLOT_BYTES).set(slots);
  const { idf, avgdl, k1, b } = scoring;
  const kept = wasm.score(
    n,
    docsAt,
    freqsAt,
    slotsAt,
    code,
    limit,
    top,
    outDocs,
    outScores,
    outExpiring,
    weights,
    priorities,
    idf,
    avgdl,
    k1,
    k1 + 1.0,
    1 - b,
    b,
  );
  if (kept < 0) return undefined;
  // Copies: the memory is reused by the next word.
  return {
    docs: new Int32Array(buffer, outDocs, kept).slice(),
    scores: new Float64Array(buffer, outScores, kept).slice(),
    expiring: new Uint8Array(buffer, outExpiring, kept).slice(),
  };
}
