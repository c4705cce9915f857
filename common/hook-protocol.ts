/**
 * The hook ↔ app wire contract (APP-3, ARCHITECTURE §The hook protocol): newline-delimited JSON
 * over the per-user socket, one schema module for the hook client, the IPC server and the spool.
 *
 * Why `zod/mini`: the hook client starts for every assistant event, and full zod costs it about
 * 100 ms of start-up; zod/mini bundles to a few KB and validates the same shapes.
 */
import * as z from 'zod/mini';
import { ASSISTANTS, HOOK_EVENTS, type AssistantName, type HookEventName } from './hook-events.js';

import { acceptHookRequest } from './hook-request-check.js';
import { MAX_LINE_BYTES, PROTOCOL_VERSION } from './hook-wire.js';

export { MAX_LINE_BYTES, PROTOCOL_VERSION };

export const IPC_ERROR_CODES = [
  'bad-json', // the line is not JSON
  'bad-version', // a protocol version this side does not speak
  'bad-request', // JSON, but not a request this schema accepts
  'too-large', // a line (request or reply) over MAX_LINE_BYTES
  'bad-token', // the token does not match the token file
  'handler-failed', // the answer for an answered event could not be computed
  'enqueue-failed', // an unanswered event could not be made durable
  'no-handler', // this host serves IPC but cannot answer hooks (the client falls back)
  'busy', // too many connections, or too much unanswered on one (the client falls back)
] as const;
export type IpcErrorCode = (typeof IPC_ERROR_CODES)[number];

/**
 * The schemas, built when a line is first checked: building them is a few milliseconds of zod at
 * every start, and the hook fallback that only spools an event (a Stop without the daemon, every
 * turn) checks none (X-PERF, issue 17).
 */
function buildSchemas() {
  const version = z.literal(PROTOCOL_VERSION);
  /** A request id; for hook requests it is also the event id the spool and capture dedupe on. */
  const requestId = z.string().check(z.minLength(1), z.maxLength(128));
  const token = z.string().check(z.maxLength(256));
  const envSchema = z.record(z.string(), z.string());

  const hookRequestSchema = z.object({
    v: version,
    id: requestId,
    token,
    kind: z.literal('hook'),
    assistant: z.enum(ASSISTANTS),
    event: z.enum(HOOK_EVENTS),
    /** The assistant's hook stdin, parsed; the daemon's adapter reads it. */
    payload: z.unknown(),
    /** The hook process's ROLE_* / KIOKU_* variables: they differ per terminal from the app's. */
    env: z.optional(envSchema),
    /**
     * When the hook started (ISO 8601, the hook's clock): the event's own time. A Stop that the
     * daemon queues and the hook, after its wait, spools too is then dated alike both ways, so its
     * captured id is the same and it is written once.
     */
    at: z.optional(z.string().check(z.maxLength(40))),
  });
  const statusRequestSchema = z.object({ v: version, id: requestId, token, kind: z.literal('status') });
  const pingRequestSchema = z.object({ v: version, id: requestId, token, kind: z.literal('ping') });
  /**
   * `kioku memory recall` asked of the daemon (issue 17), which keeps the index open: the CLI has
   * resolved the role and the project, and sends its own clock so that the answer is the one it
   * would have computed itself. The reply carries the recall's result (recall-request.ts).
   */
  const recallRequestSchema = z.object({
    v: version,
    id: requestId,
    token,
    kind: z.literal('recall'),
    /** The memory home the CLI means: a daemon serving another one declines. */
    memoryHome: z.string().check(z.maxLength(4096)),
    role: z.string().check(z.minLength(1), z.maxLength(64)),
    query: z.string().check(z.maxLength(10_000)),
    limit: z.int().check(z.gte(1), z.lte(100)),
    project: z.optional(z.string().check(z.maxLength(4096))),
    /** The CLI's "now" (ms since the epoch) and its `last_replayed` text for it (its time zone). */
    nowMs: z.number(),
    replayedAt: z.string().check(z.maxLength(40)),
  });
  const ipcRequestSchema = z.discriminatedUnion('kind', [hookRequestSchema, statusRequestSchema, pingRequestSchema, recallRequestSchema]);

  const errorSchema = z.object({ code: z.enum(IPC_ERROR_CODES), message: z.string() });
  const count = z.int().check(z.nonnegative());

  /** Answer to hook and ping requests, and to any request that failed. */
  const hookReplySchema = z.object({
    v: version,
    /** The request's id; empty when the request was too broken to read one. */
    id: z.string(),
    ok: z.boolean(),
    stdout: z.string(),
    /** Hooks fail open (STYLE.md): the hook always exits 0, whatever happened here. */
    exitCode: z.literal(0),
    error: z.optional(errorSchema),
    /** How long the daemon took over a hook request, from its line to this reply (ms): the daemon's share of the round trip, for KIOKU_TRACE. */
    handledMs: z.optional(z.number()),
  });

  /** One role's part of a run; the fields of CLI.md's `sleep --json` (numbers kept lenient on read). */
  const sleepRoleResultSchema = z.object({
    id: z.string(),
    ok: z.boolean(),
    processed: z.number(),
    created: z.number(),
    merged: z.number(),
    discarded: z.number(),
    forgotten: z.number(),
    left: z.number(),
    error: z.optional(z.string()),
  });

  /** One scheduled run: the roles consolidated by one hourly check, one nap check or one catch-up. */
  const sleepRunSchema = z.object({
    reason: z.string(),
    startedAt: z.string(),
    finishedAt: z.string(),
    ok: z.boolean(),
    roles: z.array(sleepRoleResultSchema),
  });

  const sleepStatusSchema = z.object({
    state: z.enum(SLEEP_STATES),
    /** The role being consolidated now, else null. */
    role: z.nullable(z.string()),
    lastRun: z.nullable(sleepRunSchema),
    /** The next time the scheduler looks (ISO with offset), null when nothing is scheduled. */
    nextCheck: z.nullable(z.string()),
    /** The latest check and what it decided (e.g. skipped: an assistant was running). */
    lastCheck: z.optional(z.nullable(z.object({ at: z.string(), kind: z.string(), outcome: z.string() }))),
  });

  const daemonStatusSchema = z.object({
    pid: z.int(),
    startedAt: z.string(),
    version: z.string(),
    /** Listening, and the spool left from before the start has been ingested. */
    ready: z.boolean(),
    memoryHome: z.string(),
    /** Spooled events not yet handled (spool/ plus spool/processing/). */
    spoolPending: count,
    queue: z.object({ busy: z.boolean(), handled: count, failed: count }),
    /**
     * Work the daemon has set itself and not done yet — a role's next load to prepare after its
     * files changed, or to write to disk once their times can tell a later change (load-warmer.ts).
     * Absent from daemons older than this field.
     */
    background: z.optional(count),
    /** Present when this host runs the sleep scheduler (not with `kioku daemon --no-schedule`). */
    sleep: z.optional(sleepStatusSchema),
  });

  const statusReplySchema = z.object({ v: version, id: z.string(), ok: z.literal(true), status: daemonStatusSchema });
  const ipcReplySchema = z.union([statusReplySchema, hookReplySchema]);

  /**
   * A spooled event (one file in `<state>/spool/`). Delivery from the spool is at-least-once (a
   * daemon killed between handling and deleting a file handles it again on restart), so whatever
   * consumes these must be idempotent by `eventId`.
   */
  const spoolRecordSchema = z.object({
    v: version,
    eventId: requestId,
    assistant: z.enum(ASSISTANTS),
    event: z.enum(HOOK_EVENTS),
    payload: z.unknown(),
    env: envSchema,
    spooledAt: z.string(),
    /** 'hook': the client wrote it because nobody answered; 'daemon': received live, made durable. */
    spooledBy: z.enum(['hook', 'daemon']),
    /**
     * The session's role as the hook resolved it (issue 13): by the time the event is ingested, a
     * SessionEnd handled without the app has removed the session's `.role` file, and `.active` may
     * have changed. Absent in records from older clients and from the daemon (which ingests in order).
     */
    roleId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  });
  return {
    ipcRequest: ipcRequestSchema,
    hookRequest: hookRequestSchema,
    recallRequest: recallRequestSchema,
    hookReply: hookReplySchema,
    statusReply: statusReplySchema,
    ipcReply: ipcReplySchema,
    sleepStatus: sleepStatusSchema,
    sleepRun: sleepRunSchema,
    sleepRoleResult: sleepRoleResultSchema,
    daemonStatus: daemonStatusSchema,
    spoolRecord: spoolRecordSchema,
  };
}

type Schemas = ReturnType<typeof buildSchemas>;
let built: Schemas | undefined;
const schemas = (): Schemas => (built ??= buildSchemas());

/** SLEEP-7 / APP-1: what the tray, the web UI and `kioku status` show about sleeping. */
export const SLEEP_STATES = ['awake', 'asleep', 'napping', 'consolidating', 'error'] as const;
export type SleepStateName = (typeof SLEEP_STATES)[number];

export type HookRequest = z.infer<Schemas['hookRequest']>;
export type RecallRequest = z.infer<Schemas['recallRequest']>;
export type IpcRequest = z.infer<Schemas['ipcRequest']>;
export type SleepStatus = z.infer<Schemas['sleepStatus']>;
export type SleepRun = z.infer<Schemas['sleepRun']>;
export type SleepRoleResult = z.infer<Schemas['sleepRoleResult']>;
export type DaemonStatus = z.infer<Schemas['daemonStatus']>;
export type HookReply = z.infer<Schemas['hookReply']>;
export type StatusReply = z.infer<Schemas['statusReply']>;
export type IpcReply = z.infer<Schemas['ipcReply']>;

export function isStatusReply(reply: IpcReply): reply is StatusReply {
  return 'status' in reply;
}

/** One hook event as the daemon's handlers see it, live or from the spool. */
export interface HookCall {
  /** Stable per event: a client that spools after a failed send reuses its request id here. */
  eventId: string;
  assistant: AssistantName;
  event: HookEventName;
  payload: unknown;
  env: Record<string, string>;
  /** When the hook started (ISO 8601): the time both deliveries of the event are spooled under. */
  at?: string;
}

export type SpoolRecord = z.infer<Schemas['spoolRecord']> & HookCall;

export type Parsed<T> = { ok: true; value: T } | { ok: false; id: string; code: IpcErrorCode; message: string };

function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const where = issue.path.length ? issue.path.join('.') : '(message)';
      const expected = 'expected' in issue && issue.expected !== undefined ? ` (expected ${String(issue.expected)})` : '';
      const values = 'values' in issue && Array.isArray(issue.values) ? ` (one of ${issue.values.join(', ')})` : '';
      return `${where}: ${issue.code}${expected}${values}`;
    })
    .join('; ');
}

function idOf(value: unknown): string {
  const id = value && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id.length <= 128 ? id : '';
}

/**
 * What a rejected line was, in words, never its text (issue 14): error replies and the log must
 * not echo a payload — it may be megabytes, and it is the user's prompt or a secret in it.
 */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

function parseJsonLine(line: string, what: string): Parsed<unknown> {
  try {
    return { ok: true, value: JSON.parse(line) as unknown };
  } catch (error) {
    // V8 quotes the text around the error ("Unexpected token 'x', "xyzzy…" is not valid JSON"): only the position is kept.
    const position = /at position (\d+)/.exec((error as Error).message)?.[1];
    const where = position === undefined ? 'malformed or cut short' : `malformed at character ${position}`;
    return {
      ok: false,
      id: '',
      code: 'bad-json',
      message: `${what} is not JSON (${line.length} characters, ${where}); send one JSON object per line`,
    };
  }
}

function checkVersion(value: unknown, what: string): Parsed<unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      id: '',
      code: 'bad-request',
      message: `${what} must be a JSON object, got ${Array.isArray(value) ? 'an array' : describeValue(value)}`,
    };
  }
  const v = (value as { v?: unknown }).v;
  if (v === PROTOCOL_VERSION) return { ok: true, value };
  return {
    ok: false,
    id: idOf(value),
    code: 'bad-version',
    message: `${what} has protocol version ${typeof v === 'number' ? v : describeValue(v)}, this side speaks ${PROTOCOL_VERSION}; update the hook client and the app to the same Kioku`,
  };
}

/** Validate one request line (without its newline). Never throws. */
export function parseRequestLine(line: string): Parsed<IpcRequest> {
  const json = parseJsonLine(line, 'request');
  if (!json.ok) return json;
  const versioned = checkVersion(json.value, 'request');
  if (!versioned.ok) return versioned;
  // A well-formed hook request, the daemon's every event, without zod (hook-request-check.ts).
  const hook = acceptHookRequest(json.value as Record<string, unknown>);
  if (hook) return { ok: true, value: hook };
  const result = schemas().ipcRequest.safeParse(json.value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, id: idOf(json.value), code: 'bad-request', message: `invalid request: ${describeIssues(result.error)}` };
}

/** A request as the schema alone gives it (undefined when it rejects it): what hook-request-check.ts is held to. */
export function schemaCheckedRequest(value: unknown): IpcRequest | undefined {
  const result = schemas().ipcRequest.safeParse(value);
  return result.success ? result.data : undefined;
}

/** Validate one reply line (without its newline). Never throws. */
export function parseReplyLine(line: string): Parsed<IpcReply> {
  const json = parseJsonLine(line, 'reply');
  if (!json.ok) return json;
  const versioned = checkVersion(json.value, 'reply');
  if (!versioned.ok) return versioned;
  const result = schemas().ipcReply.safeParse(json.value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, id: idOf(json.value), code: 'bad-request', message: `invalid reply: ${describeIssues(result.error)}` };
}

/** Validate the text of one spool file. Never throws. */
export function parseSpoolRecord(text: string): Parsed<SpoolRecord> {
  const json = parseJsonLine(text, 'spool record');
  if (!json.ok) return json;
  const result = schemas().spoolRecord.safeParse(json.value);
  if (result.success) return { ok: true, value: { ...result.data, payload: result.data.payload } };
  return { ok: false, id: '', code: 'bad-request', message: `invalid spool record: ${describeIssues(result.error)}` };
}

/** One message as a line. JSON.stringify escapes every newline inside strings, so it is one line. */
export function encodeMessage(message: IpcRequest | IpcReply | SpoolRecord): string {
  return `${JSON.stringify(message)}\n`;
}

export function okReply(id: string, stdout: string): HookReply {
  return { v: PROTOCOL_VERSION, id, ok: true, stdout, exitCode: 0 };
}

/** Longest error message a reply carries: a sentence, never a whole payload a handler's error quoted. */
export const MAX_ERROR_MESSAGE_CHARS = 500;

export function errorReply(id: string, code: IpcErrorCode, message: string): HookReply {
  const short =
    message.length > MAX_ERROR_MESSAGE_CHARS
      ? `${message.slice(0, MAX_ERROR_MESSAGE_CHARS)}… (${message.length - MAX_ERROR_MESSAGE_CHARS} more characters left out)`
      : message;
  return { v: PROTOCOL_VERSION, id, ok: false, stdout: '', exitCode: 0, error: { code, message: short } };
}

export function statusReply(id: string, status: DaemonStatus): StatusReply {
  return { v: PROTOCOL_VERSION, id, ok: true, status };
}
