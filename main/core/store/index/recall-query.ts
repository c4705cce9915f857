import type Database from 'better-sqlite3';
import type { MemoryCategory, MemoryType } from '../../../../common/memory.js';
import type { MatchQueries } from './cjk-segmenter.js';
import { COLUMN_WEIGHTS, MAX_BOOST, PRIORITY_STEP, TYPE_WEIGHTS } from './recall-boost.js';
import { rankWholeWords, type Scored } from './recall-term-rank.js';
import { statement } from './statement-cache.js';

const typeWeightSql = `CASE r.memory_type ${Object.entries(TYPE_WEIGHTS)
  .map(([type, weight]) => `WHEN '${type}' THEN ${weight}`)
  .join(' ')} ELSE 1 END`;
// MEM-4's ranking: text score × type weight × priority step (recall-boost.ts).
const BOOST_SQL = `(${typeWeightSql}) * (1 + (r.priority - 3) * ${PRIORITY_STEP})`;

// FTS5's bm25() is lower for better matches; negated so that a higher score is better.
const TEXT_SCORE_SQL = `-bm25(memories_fts, ${COLUMN_WEIGHTS.join(', ')})`;
const ELIGIBLE_SQL = 'r.role = @role AND (r.expires_ms IS NULL OR r.expires_ms > @now)';

/**
 * The matches whose boost is at least @minBoost, scored and filtered. SQLite computes the
 * select list only for rows that pass the WHERE clause, so bm25 — about a microsecond a row —
 * is paid only by memories that could still make the answer; each match costs its memory_rank
 * lookup. With @minBoost 0 it is every match: exact, and the most expensive.
 */
const BOOSTED_RANKING_SQL = `
  SELECT r.rowid AS rowid, ${TEXT_SCORE_SQL} * ${BOOST_SQL} AS score
  FROM memories_fts JOIN memory_rank r ON r.rowid = memories_fts.rowid
  WHERE memories_fts MATCH @match AND ${ELIGIBLE_SQL} AND ${BOOST_SQL} >= @minBoost
  ORDER BY score DESC, r.rowid
  LIMIT @limit`;

/** The best matches by text alone; only these few are looked up in memory_rank. */
const CANDIDATES_SQL = `
  WITH candidates AS (
    SELECT rowid, ${TEXT_SCORE_SQL} AS text_score FROM memories_fts WHERE memories_fts MATCH @match
    ORDER BY text_score DESC LIMIT @candidates
  )
  SELECT c.rowid AS rowid, c.text_score AS text_score, c.text_score * ${BOOST_SQL} AS score, (${ELIGIBLE_SQL}) AS eligible
  FROM candidates c JOIN memory_rank r ON r.rowid = c.rowid`;

const ROW_SQL = `
  SELECT rowid, id, role, category, path, summary, tags, memory_type, priority, hits, strength, last_replayed, expires, mtime_ms, size,
    projects, project_specific
  FROM memories WHERE rowid = ?`;

export interface RankedRow {
  rowid: number;
  id: string;
  role: string;
  category: MemoryCategory;
  /** Relative to the memory home. */
  path: string;
  summary: string;
  tags: string;
  memory_type: MemoryType;
  priority: number;
  hits: number;
  strength: number;
  last_replayed: string;
  /** MEM-8: recall marks a temporary grant (recall.ts `grant`). */
  expires: string;
  mtime_ms: number;
  size: number;
  /** The memory's project folders, one per line (recall-project.ts). */
  projects: string;
  project_specific: 0 | 1;
  score: number;
}

interface Candidate extends Scored {
  text_score: number;
  eligible: 0 | 1;
}

const byScore = (a: Scored, b: Scored) => b.score - a.score || a.rowid - b.rowid;

/** Candidates per memory asked for: enough that the bound below almost always holds. */
const CANDIDATES_PER_RESULT = 20;
const MIN_CANDIDATES = 100;

/**
 * The best `limit` eligible memories for one match expression. Scoring every match against
 * memory_rank costs about a microsecond per match (9 ms for a common word at 100k memories),
 * so first only the best matches by text are scored. The answer is exact when every match was
 * a candidate, or when the limit-th score beats what any other match could reach (its text
 * score is at most the lowest candidate's, its boost at most MAX_BOOST). Otherwise only the
 * matches whose boost could still lift them past the limit-th score are scored: when many
 * memories match about equally well (a common word), that is the best-boosted few, not all.
 * With fewer than `limit` eligible candidates (a role with few of the matches, many expired),
 * every match is.
 */
function rankMatch(db: Database.Database, role: string, match: string, limit: number, nowMs: number): Scored[] {
  const candidates = Math.max(MIN_CANDIDATES, limit * CANDIDATES_PER_RESULT);
  const rows = statement(db, CANDIDATES_SQL).all({ match, role, now: nowMs, candidates }) as Candidate[];
  const eligible = rows
    .filter((row) => row.eligible)
    .sort(byScore)
    .slice(0, limit);
  if (rows.length < candidates) return eligible;
  // FTS5 floors IDF at 1e-6, so text scores are positive and the ceiling below is an upper bound.
  const lowestCandidate = Math.min(...rows.map((row) => row.text_score));
  const full = lowestCandidate <= 0 || eligible.length < limit;
  if (!full && eligible[limit - 1]!.score > lowestCandidate * MAX_BOOST) return eligible;
  // Any other match scores at most lowestCandidate × its boost: below the limit-th score unless
  // its boost reaches this (a hair lower, so that rounding never drops a tie).
  const minBoost = full ? 0 : (eligible[limit - 1]!.score / lowestCandidate) * (1 - 1e-9);
  const boosted = statement(db, BOOSTED_RANKING_SQL).all({ match, role, now: nowMs, limit, minBoost }) as Scored[];
  // The candidates below minBoost may still beat the boosted ones (with minBoost 0 they are among them).
  const seen = new Set(boosted.map((row) => row.rowid));
  return [...boosted, ...eligible.filter((row) => !seen.has(row.rowid))].sort(byScore).slice(0, limit);
}

/**
 * A memory found only by the `near` query (its characters close together, not side by side)
 * counts for less than one with the exact phrase, so that exact matches of similar strength
 * come first while scores stay comparable across both.
 */
const NEAR_MATCH_FACTOR = 0.5;

/**
 * The best `limit` memories of a role, expired ones left out. The looser `near` query runs
 * only when the exact one found fewer than `limit`, so a common query costs one search.
 */
export function searchMemories(db: Database.Database, role: string, queries: MatchQueries, limit: number, nowMs: number): RankedRow[] {
  // Every statement below reads one snapshot (WAL): a writer committing between two of them —
  // the daemon's sleep while a CLI recalls — can leave neither a ranked row without its memory
  // nor the own ranking's instance lists out of step with its pages.
  if (!db.inTransaction) return db.transaction(() => searchMemories(db, role, queries, limit, nowMs))();
  let ranked = (queries.words && rankWholeWords(db, role, queries.words, limit, nowMs)) ?? rankMatch(db, role, queries.exact, limit, nowMs);
  if (ranked.length < limit && queries.near !== undefined) {
    const found = new Set(ranked.map((row) => row.rowid));
    const near = rankMatch(db, role, queries.near, limit, nowMs)
      .filter((row) => !found.has(row.rowid))
      .map((row) => ({ ...row, score: row.score * NEAR_MATCH_FACTOR }));
    ranked = [...ranked, ...near].sort(byScore).slice(0, limit);
  }
  const row = statement(db, ROW_SQL);
  return ranked.map(({ rowid, score }) => ({ ...(row.get(rowid) as Omit<RankedRow, 'score'>), score }));
}
