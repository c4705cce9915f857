import type { MemoryCategory, MemoryType } from '../../../../common/memory.js';
import type { FactsUsage } from '../../store/notes/notes-limits.js';

/**
 * What `kioku import --from jsc-persona|dsh <dir>` did, or would do on `--dry-run` (X-IMPORT).
 * Every importer fills the same report, so the CLI prints one shape and a second run can be
 * compared with the first: a run that changes nothing has `changes === 0`.
 */
export type ImportSource = 'jsc-persona' | 'dsh';

/** `create`: written now (dry run: would be written); `exists`: already imported, left alone. */
export type ImportAction = 'create' | 'exists';

export interface ImportedRoleReport {
  /** Where the persona came from, as recorded in the role (`imported_from`): `dsh:lumi`. */
  sourceKey: string;
  /** The persona folder. */
  sourcePath: string;
  id: string;
  name: string;
  /**
   * `create`: role files written; `exists`: a role with this source was imported before;
   * `memory-only`: the persona has no usable definition (no nature), so only its memory folder
   * is made — Kioku never invents a character (seed 000 §--new: 不得硬猜).
   */
  action: ImportAction | 'memory-only';
  /** The role became the active one (there was none; seed 000 §--new step 14). */
  madeActive: boolean;
  /** Role text changed by PRIV-1/2 cleaning (a secret masked, Simplified → Traditional). */
  cleaned: boolean;
  /** Why a field was left empty or came from a fallback (shown to the user). */
  notes: string[];
}

export interface ImportedMemoryReport {
  role: string;
  id: string;
  category: MemoryCategory;
  memory_type: MemoryType;
  summary: string;
  /** The memory file (created, would be created, or the one already there). */
  path: string;
  /** Source file, and line for JSONL sources: `lumi/memory/short-term.jsonl#L3`. */
  source: string;
  action: ImportAction;
  /** The stored text differs from the source text (PRIV-1/2); the source is untouched. */
  cleaned: boolean;
}

/** A source entry left out on purpose or because it could not be read. */
export interface ImportSkip {
  source: string;
  reason: string;
}

export interface FactsImportReport {
  source: string;
  target: string;
  /**
   * `create`: FACT.md written (it did not exist); `unchanged`: it already holds this text;
   * `conflict`: it holds other text and was left as it is; `refused`: the source is over a
   * DSH-1 limit (never truncated); `absent`: the source has no FACT.md.
   */
  action: 'create' | 'unchanged' | 'conflict' | 'refused' | 'absent';
  usage?: FactsUsage;
  cleaned: boolean;
}

export interface JournalImportReport {
  source: string;
  target: string;
  /** Entries appended (dry run: that would be). */
  added: number;
  /** Entries the target journal already had. */
  existing: number;
  /** Source lines that are not entries (broken JSON, no text): skipped and counted. */
  corrupt: number;
  cleaned: number;
}

export interface ImportReport {
  from: ImportSource;
  source: string;
  dryRun: boolean;
  roles: ImportedRoleReport[];
  memories: ImportedMemoryReport[];
  facts?: FactsImportReport;
  journal?: JournalImportReport;
  skipped: ImportSkip[];
  /** Things the user must look at (a FACT.md conflict or refusal); the CLI exits 1 when any. */
  conflicts: string[];
  /** Script-guard warnings (ambiguous characters left as written). */
  warnings: string[];
  /** Files and entries created (dry run: that would be). 0 on a repeated run. */
  changes: number;
}

export function emptyReport(from: ImportSource, source: string, dryRun: boolean): ImportReport {
  return { from, source, dryRun, roles: [], memories: [], skipped: [], conflicts: [], warnings: [], changes: 0 };
}
