/**
 * The data of the facts, project-memory, journal, status/diagnose, settings and mind-map channels
 * (common/ui-contract.ts). Plain JSON-safe shapes, like ui-contract-types.ts; kept in their own
 * file so the views of issue #5 part 5 do not all edit one file at once.
 */
import type { ConsolidatedCategory, MemoryCategory, MemoryType } from './memory.js';
import type { SleepStateName, SleepStatus } from './hook-protocol.js';
import type { MemoryClarityName } from './ui-contract-types.js';

// ---- DSH-1 global facts and DSH-2 project memory -------------------------------------------

/** Usage of FACT.md against both write limits (DSH-1: 100 lines AND 8000 bytes). */
export interface FactsUsageView {
  lines: number;
  maxLines: number;
  bytes: number;
  maxBytes: number;
  /** The limits the text is over; empty when it may be saved. */
  over: Array<'lines' | 'bytes'>;
}

/** FACT.md as the editor opens it. */
export interface FactsView {
  path: string;
  exists: boolean;
  text: string;
  usage: FactsUsageView;
  /** A fingerprint of the text read; an update brings it back so an edit made elsewhere is never overwritten. */
  revision: string;
}

/** What a save did; `view` is the file as it now is (read back). */
export interface NotesSaved<V> {
  created: boolean;
  /** The stored text differs from what was sent (a secret masked, Simplified → Traditional; PRIV-1/2). */
  changedByCleaning: boolean;
  warnings: string[];
  view: V;
}

/** Characters of a project MEMORY.md against its limit (DSH-2: 8000 characters). */
export interface ProjectMemoryUsageView {
  chars: number;
  maxChars: number;
  over: boolean;
}

export interface ProjectMemoryView {
  /** The project folder, absolute. */
  project: string;
  path: string;
  exists: boolean;
  text: string;
  usage: ProjectMemoryUsageView;
  revision: string;
}

/** A folder the assistants were seen working in, for the project picker. */
export interface KnownProject {
  path: string;
  /** `<path>/MEMORY.md` exists. */
  hasMemory: boolean;
  /** Where Kioku saw it: a role lock's transcript, a recent Claude Code transcript, or the app's own folder. */
  source: 'lock' | 'transcript' | 'app';
  /** When the session there last wrote its transcript (ISO), when known. */
  lastSeen: string | null;
}

export interface KnownProjects {
  projects: KnownProject[];
}

// ---- DSH-3 journal ------------------------------------------------------------------------------

export interface JournalEntryView {
  /** ISO 8601 with offset, as stored. */
  ts: string;
  tags: string[];
  text: string;
  /** The entry's line in JOURNAL.jsonl (1-based): stable for keys, and where to look when fixing the file. */
  line: number;
}

export interface JournalSearchView {
  /** Newest first, at most the limit asked for. */
  entries: JournalEntryView[];
  /** Matching entries before the limit. */
  matched: number;
  /** Entries in the journal. */
  total: number;
  /** Lines that are not entries (skipped), and the first of their line numbers. */
  corrupt: number;
  corruptLines: number[];
}

export interface JournalAppended {
  entry: JournalEntryView;
  changedByCleaning: boolean;
  warnings: string[];
}

export interface JournalTagCount {
  tag: string;
  count: number;
}

export interface JournalTags {
  /** Most used first, then by name. */
  tags: JournalTagCount[];
  total: number;
}

// ---- OPS-1 status and diagnose ---------------------------------------------------------------

/** One role in the status report (the same fields as `kioku status --json`). */
export interface RoleStatusView {
  id: string;
  name: string;
  emoji: string;
  active: boolean;
  covered: boolean;
  inbox: number;
  memory: { categories: Record<MemoryCategory, number>; types: Record<MemoryType, number>; total: number };
  clarity: Record<MemoryClarityName, number>;
  lastInteraction: string | null;
  lastInteractionSource: string | null;
  lastSleep: string | null;
  lastForget: string | null;
  warnings: string[];
}

export interface CronEntryView {
  kind: string;
  schedule: string;
  program: string;
  programExists: boolean;
  disabled: boolean;
  pinnedRole: string | null;
}

/** `kioku status --json` (CLI.md; OPS-1), as the status page shows it. */
export interface StatusReportView {
  roles: RoleStatusView[];
  activeRole: string | null;
  roleResolution: { id: string | null; source: 'env' | 'active' | null; exists: boolean; file: string | null; problem?: string };
  enabled: { on: boolean; setting: boolean | null; reason: string | null };
  hooks: Array<{
    assistant: string;
    installed: boolean;
    complete: boolean;
    missingEvents: string[];
    settingsFile: string;
    problem?: string;
    /** Codex: which of Kioku's hooks the user trusted in `/hooks` (Codex skips the others silently; issue 13). */
    trust?: { configFile: string; trusted: number; untrusted: string[]; modified: string[]; disabled: string[]; problem?: string };
    /** Claude Code: plugins whose hooks run Kioku (issue 13). */
    plugins?: Array<{
      id: string;
      scope: 'user' | 'project' | 'local' | 'skills-dir';
      root: string;
      enabled: boolean;
      decidedBy: string | null;
      events: string[];
      missingEvents: string[];
    }>;
    pluginProblems?: Array<{ file: string; problem: string }>;
    configDirExists?: boolean;
  }>;
  session: { role: string; restarted: 'yes' | 'no' | 'unknown'; roleFileTime: string | null; lastSessionTime: string | null } | null;
  scope: { prefixes: string[] | null; cwd: string; inScope: boolean };
  sleepWindow: { start: string; end: string; now: boolean };
  nap: { enabled: boolean; idleMinutes: number; minInbox: number; intervalMinutes: number };
  sleeping: boolean;
  state: SleepStateName;
  stateSource: 'daemon' | 'computed';
  daemon: { running: boolean; pid?: number; version?: string; scheduler: boolean; sleep?: SleepStatus };
  schedule: {
    present: boolean;
    by: Array<'daemon' | 'cron'>;
    daemonScheduler: boolean;
    cron: {
      available: boolean;
      problem?: string;
      entries: CronEntryView[];
      legacyEntries: number;
      service: 'running' | 'not-running' | 'unknown';
    };
    coveredRoles: string[];
    uncoveredRoles: string[];
    warnings: string[];
  };
  /** Hook events waiting to be captured (issue 13): count, the oldest one's time (ISO) and age. */
  spool: { count: number; oldest: string | null; oldestAgeMinutes: number | null; failed: number };
  /** Sync through git between machines: the last sync and the conflict copies still to look at. */
  sync?: {
    configured: boolean;
    machine: string | null;
    last: { at: string; outcome: 'ok' | 'offline' | 'error'; message: string; lastOkAt: string | null } | null;
    conflicts: string[];
  };
  dependencies: {
    node: { version: string; ok: boolean; required: string };
    planner: { setting: string; cli: string | null; command: string | null };
  };
  now: string;
}

/**
 * What each diagnose row found (OPS-1: the role skill's "when the role does not load" checklist), as a stable code the UI
 * words in its own language with `params`; `fail` rows also have a "what to do" text there.
 */
export const DIAGNOSE_CODES = [
  'role.ok',
  'role.problem',
  'role.none',
  'role.missing',
  'enabled.off',
  'enabled.noHome',
  'enabled.forced',
  'enabled.on',
  'hooks.none',
  'hooks.ok',
  'hooks.incomplete',
  'hooks.unreadable',
  'hooks.codexTrusted',
  'hooks.codexUntrusted',
  'hooks.codexModified',
  'hooks.codexDisabled',
  'hooks.codexTrustUnknown',
  'hooks.plugin',
  'hooks.pluginIncomplete',
  'hooks.pluginDisabled',
  'hooks.twice',
  'hooks.pluginDir',
  'session.restarted',
  'session.notRestarted',
  'session.unknown',
  'scope.outside',
  'scope.inside',
  'scope.all',
  'window.asleep',
  'window.awake',
  'zone.ok',
  'zone.shellUnknown',
  'zone.shellDiffers',
  'zone.cronLineZone',
  'zone.cronLineHours',
  'node.ok',
  'node.old',
  'planner.cli',
  'planner.local',
  'planner.missing',
  'schedule.none',
  'schedule.ok',
  'cron.notRunning',
  'target.missing',
  'target.ok',
  'target.legacy',
  'coverage.uncovered',
  'coverage.ok',
  'lastRun.failed',
  'spool.waiting',
  'spool.draining',
  'spool.failed',
  'memory.overdue',
  'memory.ok',
  'memory.warning',
] as const;
export type DiagnoseCode = (typeof DIAGNOSE_CODES)[number];

/** Which part of the setup a row is about (the checklist's row label). */
export type DiagnoseArea =
  | 'role'
  | 'enabled'
  | 'hooks'
  | 'session'
  | 'scope'
  | 'window'
  | 'zone'
  | 'node'
  | 'planner'
  | 'schedule'
  | 'cron'
  | 'target'
  | 'coverage'
  | 'lastRun'
  | 'spool'
  | 'memory';

export interface DiagnoseCheck {
  area: DiagnoseArea;
  code: DiagnoseCode;
  /** ✓ ok, ✗ fail (with what to do), – information. */
  mark: 'ok' | 'fail' | 'info';
  /** Values the row's text names: files, roles, times (ISO), counts. */
  params: Record<string, string | number>;
}

export interface DiagnoseView {
  checks: DiagnoseCheck[];
  failed: number;
  now: string;
}

// ---- settings (APP-4) -------------------------------------------------------------------------

export type SettingKindName = 'int' | 'bool' | 'string' | 'time' | 'path' | 'tristate';
export type SettingValue = string | number | boolean | null;

/** Settings pages: load budgets, sleep & naps, brief, capture, calls & locks, … */
export const SETTING_GROUPS = ['general', 'load', 'sleep', 'nap', 'brief', 'capture', 'calls', 'fixed'] as const;
export type SettingGroupId = (typeof SETTING_GROUPS)[number];

export interface SettingView {
  name: string;
  kind: SettingKindName;
  group: SettingGroupId;
  /** The value in effect (environment, then settings.json, then the default). */
  value: SettingValue;
  default: SettingValue;
  source: 'env' | 'settings' | 'default';
  /** The schema's one-line description (English). */
  description: string;
  min?: number;
  max?: number;
  choices?: readonly string[];
  /**
   * False when the page may not change it: set in the environment (which wins, APP-4), or one
   * that belongs to the environment only (`fixed`: the homes, ROLE_NAME, KIOKU_NOW, …).
   */
  editable: boolean;
  readOnly?: 'env' | 'fixed';
  /** The value settings.json holds when the environment hides it. */
  stored?: SettingValue;
  /** Why a value in the environment or the file was ignored (the default was used). */
  problem?: string;
}

export interface SettingsView {
  /** `<memory home>/.kioku/settings.json` — the file every Kioku process reads. */
  file: string;
  settings: SettingView[];
  /** Problems with the file itself (not JSON, …). */
  fileProblem?: string;
}

// ---- PM-5 mind map -----------------------------------------------------------------------------

export interface MindmapNodeView {
  id: string;
  label: string;
  /** Consolidated memories carrying the concept. */
  weight: number;
  category: ConsolidatedCategory;
}

export interface MindmapEdgeView {
  source: string;
  target: string;
  weight: number;
  together: number;
  linked: number;
}

export interface MindmapView {
  role: string;
  /** The root's label (the role's name). */
  title: string;
  /** Mermaid `mindmap` text, for "copy Mermaid". */
  mermaid: string;
  nodes: MindmapNodeView[];
  edges: MindmapEdgeView[];
  /** Concepts left out by the cap. */
  omitted: number;
  /** Consolidated memories read. */
  memories: number;
  /** Memory files that could not be read (skipped). */
  unreadable: number;
}
