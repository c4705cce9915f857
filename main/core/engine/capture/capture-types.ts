import type { ConsolidatedCategory, MemoryType } from '../../../../common/memory.js';
import type { BondDirection } from '../../store/memory/bonds.js';
import type { PersonalMemoryConsent } from '../../store/memory/memory-state.js';

/**
 * The shapes capture passes around (CAP-1…7). The hook hands a turn over and returns at once
 * (CAP-3); the daemon's queue (or its spool ingest) calls handle-capture.ts with one of these.
 */
export type CaptureTrigger = 'stop' | 'pre-compact';

/** One turn as the daemon's queue hands it over (a Stop or PreCompact event). */
export interface CapturedTurnRecord {
  /** Unique per hook event; stays the same when a spooled event is replayed (idempotency key). */
  eventId: string;
  /** The session's actual role (CALL-3), resolved by the caller. */
  roleId: string;
  /** The assistant that fired the event ('claude' | 'codex' | 'gemini' …); ROLE_CLI=auto prefers its CLI. */
  assistant: string;
  sessionId?: string | null;
  trigger: CaptureTrigger;
  userText: string;
  assistantText: string;
  /** ISO time the hook received the event: the interaction time, also when handled much later. */
  receivedAt: string;
  /** The session's folder (the hook payload's `cwd`): its git top level is the memories' `project` (issue 12). */
  cwd?: string;
  /**
   * Which user turn of which session this is (sessions/captured-turn-file.ts turnKeyOf): the same
   * for the Stop and a PreCompact of one turn, so the PreCompact can tell the turn is already kept.
   */
  turn?: { sessionKey: string; key: string };
}

/** A PostCompact event (CAP-5). */
export interface PostCompactRecord {
  eventId: string;
  roleId: string;
  assistant: string;
  sessionId?: string | null;
  trigger?: 'manual' | 'auto' | string;
  /** The adapter's pick of the summary field (HookEvent.compactSummary), when it found one. */
  compactSummary?: string;
  /** The raw payload, when the caller kept it: the summary is then looked up under every known name. */
  payload?: Record<string, unknown>;
  /** Field names of the payload (HookEvent.payloadKeys), logged when no summary is found. */
  payloadKeys?: string[];
  receivedAt: string;
  /** The session's folder: the summary is that project's (issue 12). */
  cwd?: string;
}

/** What a condenser is given. */
export interface TurnInput {
  roleId: string;
  roleName: string;
  userText: string;
  assistantText: string;
  consent: PersonalMemoryConsent;
  now: Date;
  trigger: CaptureTrigger;
  /**
   * The identity file's 關係定位 section, when the role has one: the authority the condenser
   * must not contradict (seed 000 §關係定位必須雙邊記錄: "角色檔的關係定位段是權威來源").
   */
  relationship?: string;
}

/** A bond candidate (MEM-7): the user's own words or the role's real feeling, with a direction. */
export interface BondCandidate {
  text: string;
  direction: BondDirection;
}

/** One condensed memory (CAP-2): the encoding pass's fields, before it is written to the inbox. */
export interface CondensedMemory {
  /** The category the consolidation will probably file it under; the file itself goes to inbox. */
  category: ConsolidatedCategory;
  /** One sentence. */
  summary: string;
  tags: string[];
  /** 1–5 */
  priority: number;
  relevance: string[];
  memory_type: MemoryType;
  /** The body: key points, one per line. */
  keyPoints: string[];
  /** A date (YYYY-MM-DD) or a condition text (MEM-8, seed 000 §臨時授權會過期). */
  expires?: string;
  bond?: BondCandidate;
}

export interface Condenser {
  /** `local`, `cli:claude`, … (reported and stored as the memory's `condenser`). */
  readonly name: string;
  /** Resolves with at least one memory, or rejects (a CondenseFailure for expected failures). */
  condense(input: TurnInput, signal?: AbortSignal): Promise<CondensedMemory[]>;
}

/** Why a CLI condensing did not give usable memories (SLEEP-5: an execution error is not a JSON error). */
export type CondenseFailureKind =
  | 'not-found'
  | 'prompt-missing'
  | 'spawn-error'
  | 'timeout'
  | 'aborted'
  | 'exit-code'
  | 'execution-error'
  | 'empty-output'
  | 'truncated-json'
  | 'invalid-json'
  | 'schema-mismatch';

export class CondenseFailure extends Error {
  readonly kind: CondenseFailureKind;

  constructor(kind: CondenseFailureKind, message: string) {
    super(`${kind}: ${message}`);
    this.name = 'CondenseFailure';
    this.kind = kind;
  }
}

export type CondenseOutcome = { ok: true; memories: CondensedMemory[] } | { ok: false; failure: CondenseFailure };

export type CaptureSkipReason =
  | 'disabled'
  | 'empty'
  | 'too-short'
  | 'user-asked-not-to-remember'
  | 'already-captured'
  /** A PreCompact whose transcript holds nothing the user said (issue 13: Gemini's PreCompress at session start). */
  | 'no-new-dialogue'
  | 'no-summary';

/** What handling one event did, for the daemon's log and the tests. */
export interface CaptureReport {
  eventId: string;
  roleId: string;
  /** Ids of the memories written by this call. */
  written: string[];
  /** Ids that already existed (a replayed event): left as they were. */
  existing: string[];
  skipped?: CaptureSkipReason;
  /** Name of the condenser whose memories were written. */
  condenser?: string;
  /** Set when the configured condenser failed and the local one stood in. */
  fallback?: { from: string; kind: CondenseFailureKind | 'error'; message: string };
  countersUpdated: boolean;
  consentChange?: 'accepted' | 'declined';
  bondsAdded: number;
  /** Personal details removed because consent was not `accepted` (PRIV-3). */
  personalDetailsRemoved: number;
  warnings: string[];
}
