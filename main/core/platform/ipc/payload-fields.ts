/**
 * Tolerant readers for hook stdin (HOOK-2: a hook never fails over a payload). Assistants add,
 * rename and drop fields between releases, so every reader accepts a missing field or one of the
 * wrong type and answers undefined instead of throwing. Only node built-ins and common/: the hook
 * client loads this for every event.
 */
import { KiokuError } from '../../../../common/errors.js';
import type { AssistantName, HookEvent, HookEventName, SessionStartSource } from '../../../../common/hook-events.js';

export type Payload = Record<string, unknown>;

/** The payload as an object, or a clear error the hook client catches and logs (never stdout). */
export function asPayload(assistant: AssistantName, stdin: unknown): Payload {
  if (stdin !== null && typeof stdin === 'object' && !Array.isArray(stdin)) return stdin as Payload;
  const got = stdin === null ? 'null' : Array.isArray(stdin) ? 'an array' : `a ${typeof stdin}`;
  throw new KiokuError('BAD_USAGE', `${assistant} hook stdin must be a JSON object, got ${got}`, {
    hint: 'the assistant passes its hook payload as one JSON object on stdin',
  });
}

/**
 * Hook stdin text → the parsed value. Empty stdin is an empty payload (some assistants send
 * nothing for some events); text that is not JSON is a clear error for the caller to log.
 */
export function parseHookStdin(text: string): unknown {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') return {};
  try {
    return JSON.parse(trimmed) as unknown;
  } catch (error) {
    throw new KiokuError('BAD_USAGE', `hook stdin is not valid JSON (${(error as Error).message})`, {
      hint: 'the assistant passes its hook payload as one JSON object on stdin',
    });
  }
}

/** The first of the named fields that holds a non-empty string. */
export function stringField(payload: Payload, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = payload[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

export function booleanField(payload: Payload, ...names: string[]): boolean | undefined {
  for (const name of names) {
    const value = payload[name];
    if (typeof value === 'boolean') return value;
    // Some harnesses serialise flags as strings; "true"/"false" only, nothing looser.
    if (value === 'true' || value === 'false') return value === 'true';
  }
  return undefined;
}

const SOURCES: ReadonlySet<string> = new Set<SessionStartSource>(['startup', 'resume', 'clear', 'compact', 'fork']);

export function sourceField(payload: Payload, ...names: string[]): SessionStartSource | undefined {
  const value = stringField(payload, ...names)
    ?.trim()
    .toLowerCase();
  return value !== undefined && SOURCES.has(value) ? (value as SessionStartSource) : undefined;
}

export function triggerField(payload: Payload): 'manual' | 'auto' | undefined {
  const value = stringField(payload, 'trigger')?.trim().toLowerCase();
  return value === 'manual' || value === 'auto' ? value : undefined;
}

/**
 * CAP-5: the summary's field name has changed between harness versions, so
 * every known spelling is tried; the payload's keys are kept on the event so that a miss can be
 * logged with the names that were there.
 */
export const COMPACT_SUMMARY_FIELDS = ['compact_summary', 'compactSummary', 'summary', 'compaction_summary'] as const;

export function compactSummaryField(payload: Payload): string | undefined {
  return stringField(payload, ...COMPACT_SUMMARY_FIELDS);
}

/**
 * The fields read as identifiers or paths, never as words: kept as they are where payloads are
 * redacted for the spool (spool-redaction.ts), because a masked one would no longer name the
 * session or find the transcript (a Gemini transcript path holds a 64-hex project hash).
 */
export const IDENTIFIER_FIELDS: ReadonlySet<string> = new Set([
  'session_id',
  'sessionId',
  'transcript_path',
  'transcriptPath',
  'cwd',
  'agent_id',
  'agentId',
  'agent_type',
  'agentType',
  'model',
  'hook_event_name',
]);

/** The fields every assistant shares (session, transcript, cwd, sub-agent, model). */
export function commonEventFields(assistant: AssistantName, event: HookEventName, payload: Payload, now: Date): HookEvent {
  const base: HookEvent = {
    assistant,
    event,
    sessionId: stringField(payload, 'session_id', 'sessionId'),
    // Codex sends `transcript_path: null` when it has none (LOCK-3: then no lock).
    transcriptPath: stringField(payload, 'transcript_path', 'transcriptPath'),
    cwd: stringField(payload, 'cwd') ?? process.cwd(),
    receivedAt: now.toISOString(),
    payloadKeys: Object.keys(payload),
  };
  const agentId = stringField(payload, 'agent_id', 'agentId');
  const agentType = stringField(payload, 'agent_type', 'agentType');
  const model = stringField(payload, 'model');
  if (agentId !== undefined) base.agentId = agentId;
  if (agentType !== undefined) base.agentType = agentType;
  if (model !== undefined) base.model = model;
  return base;
}

/** Copy the defined values only, so events carry no `key: undefined` noise into logs and IPC. */
export function assignDefined<T extends object>(target: T, values: Partial<T>): T {
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
  return target;
}
