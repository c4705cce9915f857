/**
 * The data the UI's channels carry (see ui-contract.ts for the channels themselves). Plain
 * JSON-safe shapes: the same values travel through Electron's structured clone and over HTTP.
 */
import type { DaemonStatus, SleepStateName, SleepStatus } from './hook-protocol.js';
import type { EmojiGrid, EmojiMoodId, EmojiRect } from './emoji-grid.js';
import type { MemoryCategory, MemoryType } from './memory.js';

export type { SleepStateName, SleepStatus } from './hook-protocol.js';

/** One row of the role list (ROLE-7). `problem` is set when the role's files cannot be read. */
export interface RoleListItem {
  id: string;
  name: string;
  emoji: string;
  active: boolean;
  memoryCount: number;
  natureFirstLine: string;
  updated: string;
  format: 'split' | 'legacy' | 'unreadable';
  problem?: string;
}

export interface RoleList {
  /** In the user's order (`<role home>/.order`), roles not in it after, by ID. */
  roles: RoleListItem[];
  activeRole: string | null;
  /** `env`: ROLE_NAME of the app's environment wins over `.active` (ROLE-4). */
  activeSource: 'env' | 'active' | null;
  /** Why the active role could not be resolved (a broken `.active` or ROLE_NAME), if so. */
  activeProblem: string | null;
}

/** Everything the role editor shows and may change (identity + soul). */
export interface RoleDetail {
  id: string;
  name: string;
  emoji: string;
  aliases: string[];
  nature: string;
  vibe: string;
  source: string;
  relationship: string;
  created: string;
  updated: string;
  format: 'split' | 'legacy';
  active: boolean;
  memoryCount: number;
  files: string[];
}

/** The fields of the ROLE-5 old/new table, in its order. */
export const ROLE_CHANGE_FIELDS = ['id', 'name', 'nature', 'vibe', 'emoji', 'aliases', 'source', 'relationship'] as const;
export type RoleChangeField = (typeof ROLE_CHANGE_FIELDS)[number];

export interface RoleFieldChange {
  field: RoleChangeField;
  old: string;
  new: string;
  changed: boolean;
}

/**
 * What an edit would do (ROLE-5): nothing is written until `roles.applyChange` comes back with
 * the same input and this token; a file edited in between voids the token.
 */
export interface RoleChangePlan {
  id: string;
  changes: RoleFieldChange[];
  token: string;
  /** False when the input equals what is on disk: there is nothing to confirm. */
  changed: boolean;
  /** The role is a legacy single file; applying writes the two-file format and leaves the old file. */
  legacy: boolean;
}

export interface RoleCreated {
  id: string;
  name: string;
  emoji: string;
  /** True when the new role became the active one (there was none). */
  madeActive: boolean;
}

export interface RoleUpdated {
  id: string;
  changed: RoleChangeField[];
  role: RoleDetail;
}

export interface RoleArchived {
  id: string;
  roleArchiveDir: string;
  memoryArchiveDir: string | null;
}

export interface ActiveRoleSet {
  activeRole: string;
  /** Set when ROLE_NAME in the app's environment still overrides `.active` for it. */
  overriddenBy: string | null;
}

/**
 * The sleep state the UI shows. `source: 'schedule'` is the scheduler's own status; without a
 * scheduler (KIOKU_NO_SCHEDULE, or a host that runs none) it is only whether the clock is inside
 * the sleep window (SLEEP-1), and `schedule` is null.
 */
export interface SleepView {
  state: SleepStateName;
  source: 'schedule' | 'window';
  window: { start: string; end: string };
  schedule: SleepStatus | null;
}

export interface DaemonView {
  running: true;
  pid: number;
  startedAt: string;
  version: string;
  memoryHome: string;
  roleHome: string;
  spoolPending: number;
}

/**
 * The app state (DSH-8 `GET /api/state`). The first five fields are those of CLI.md's
 * `status --json`, so scripts can read either.
 */
export interface AppState {
  roles: RoleListItem[];
  activeRole: string | null;
  sleeping: boolean;
  state: SleepStateName;
  daemon: DaemonView;
  sleep: SleepView;
  /** The app's clock (KIOKU_NOW in tests), ISO 8601. */
  now: string;
}

/** What a host passes in about its daemon; a subset of the hook socket's status reply. */
export type DaemonStatusLike = Pick<DaemonStatus, 'pid' | 'startedAt' | 'version' | 'memoryHome' | 'spoolPending' | 'sleep'>;

// ---- memories, sleep history, bonds (the timeline, sleep and bonds views) ----------------------

/** PM-2's clarity of a consolidated memory now; inbox items have none (working memory). */
export type MemoryClarityName = 'clear' | 'faded' | 'fuzzy';
export const MEMORY_CLARITIES: readonly MemoryClarityName[] = ['clear', 'faded', 'fuzzy'];

/** One row of the timeline: no body and no file path (the UI never needs where a file lives). */
export interface MemoryListItem {
  id: string;
  role: string;
  category: MemoryCategory;
  memory_type: MemoryType;
  priority: number;
  summary: string;
  tags: string[];
  created: string;
  updated: string;
  /** null for inbox items: clarity applies once a memory is consolidated. */
  clarity: MemoryClarityName | null;
  /** How many memories this one links to. */
  links: number;
  /** MEM-6: `relevance` carries `emotional`. */
  warm: boolean;
  /** Issue 16: pinned by the user; marked wrong (superseded: history, not loaded as current). */
  pinned?: boolean;
  superseded?: boolean;
  /** Only in search answers: higher is a better match. */
  score?: number;
}

export interface MemoryList {
  /** Newest first (by `created`). */
  items: MemoryListItem[];
  /** How many match the filters in all; `items` is the page from `offset`. */
  total: number;
  offset: number;
  /** Memory files that could not be read (skipped; the others are listed). */
  unreadable: number;
}

export interface MemorySearchResult {
  /** Best match first. */
  items: MemoryListItem[];
  query: string;
  unreadable: number;
}

export interface MemoryLinkView {
  id: string;
  /** False when the linked memory is gone (forgotten, merged away). */
  found: boolean;
  summary?: string;
  category?: MemoryCategory;
  memory_type?: MemoryType;
}

/** Everything the detail panel shows of one memory. */
export interface MemoryDetail extends MemoryListItem {
  body: string;
  /** PM-1: the body split into its gist and its detail. */
  gist: string;
  detail: string;
  links_resolved: MemoryLinkView[];
  cues: string[];
  relevance: string[];
  expires: string;
  strength: number;
  hits: number;
  last_replayed: string;
  declarative: string;
  retention_stage: string;
  sleep_stage: string;
}

export type MemoryTypeCounts = Record<MemoryType, number>;

/** Counts for the timeline's chart and summary. Days and weeks are local dates (`yyyy-MM-dd`). */
export interface MemoryTimeStats {
  role: string | null;
  total: number;
  types: MemoryTypeCounts;
  categories: Record<MemoryCategory, number>;
  /** Consolidated memories only. */
  clarity: Record<MemoryClarityName, number>;
  /** Days with at least one memory, oldest first. */
  days: { date: string; counts: MemoryTypeCounts }[];
  /** Every week (starting Monday) from the first memory's to the last one's, oldest first. */
  weeks: { start: string; counts: MemoryTypeCounts }[];
  /** Memories without a readable `created` (not in days or weeks). */
  undated: number;
}

/** One DIGESTS.md entry (MEM-10). */
export interface DigestView {
  /** As written in the file (`2026/11/30 03:00:12`). */
  time: string;
  /** The same time as ISO 8601, when it could be read. */
  at: string | null;
  summary: string;
  /** created, merged, discarded, forgotten, … */
  applied: Record<string, number>;
  /** `plan:<id>` / `forgetting:<id>`: `sleep.digest` lists its memories; absent in older entries. */
  record?: string;
  /** Why the run happened: manual, sleep, nap, catch-up. */
  reason?: string;
}

export interface SleepHistory {
  role: string;
  digests: DigestView[];
  /** When the role last finished a consolidation (state.json `last_sleep`, ISO), null if never. */
  lastSleep: string | null;
}

/** One role's part of a consolidation: CLI.md's `sleep --json` fields plus a few for people. */
export interface SleepRoleRunView {
  id: string;
  ok: boolean;
  processed: number;
  created: number;
  merged: number;
  discarded: number;
  forgotten: number;
  left: number;
  error?: string;
  planner?: string;
  busy?: boolean;
  warnings?: string[];
}

/** CLI.md's `sleep --json` shape. */
export interface SleepRunView {
  roles: SleepRoleRunView[];
  awake?: boolean;
}

export type BondDirectionName = 'user-to-role' | 'role-to-user' | 'mutual';

/** One BONDS.md line (MEM-7), newest first in a list. */
export interface BondView {
  time: string;
  at: string | null;
  direction: BondDirectionName | null;
  text: string;
}

export interface BondList {
  role: string;
  bonds: BondView[];
}

// ---- the emoji mood sheet (ROLE-10) ----------------------------------------------------------

/** One cut mood image of a sheet, as a data URL (small: a cell of a few hundred pixels). */
export interface EmojiCellView {
  mood: EmojiMoodId;
  file: string;
  dataUrl: string;
}

/** A stored sheet: `<role home>/.assets/emojis/<id>-emotions-sheet[-N].png`. */
export interface EmojiSheetInfo {
  /** The file name, which names the sheet in later calls. */
  name: string;
  path: string;
  width: number;
  height: number;
  bytes: number;
  /** The whole sheet (PNG) as a data URL, for the editor to draw the grid on. */
  dataUrl: string;
  /** True when the role's 簽名 emoji section already points at this sheet. */
  inSignature: boolean;
  /** Picked but not saved: held in memory, nothing on disk until emoji.saveSheet (`path` is where it will go). */
  staged?: boolean;
}

/** What the emoji sheet editor shows for a role. */
export interface EmojiSheetView {
  id: string;
  name: string;
  emoji: string;
  /** The role's 簽名 emoji section as it is now. */
  signature: string;
  /** The newest sheet (or the one asked for); null when the role has none yet. */
  sheet: EmojiSheetInfo | null;
  /** The sheet's saved grid, else the default 3×3; null without a sheet. */
  grid: EmojiGrid | null;
  gridSaved: boolean;
  /** Why the sheet's grid file could not be used (the default grid is shown instead). */
  gridProblem: string | null;
  /** The cut images of this sheet that exist, in mood order. */
  cells: EmojiCellView[];
  /** How many sheet versions the role has. */
  versions: number;
}

/** Nine previews cut by main exactly as a save would cut them, shrunk. */
export interface EmojiGridPreview {
  cells: { mood: EmojiMoodId; rect: EmojiRect; dataUrl: string }[];
}

/** What saving a sheet would do (ROLE-5): nothing is written until emoji.saveSheet brings this token. */
export interface EmojiSavePlan {
  id: string;
  sheet: string;
  change: { field: 'signature'; old: string; new: string; changed: boolean };
  token: string;
  /** The files a save writes: the grid file, the nine cells, and the identity file when the section changes. */
  files: string[];
}

export interface EmojiSheetSaved {
  id: string;
  sheet: string;
  gridFile: string;
  cells: string[];
  signatureChanged: boolean;
  view: EmojiSheetView;
}
