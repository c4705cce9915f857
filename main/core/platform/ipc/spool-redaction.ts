import { IDENTIFIER_FIELDS } from './payload-fields.js';
import { isSecretKeyName, redactSync } from '../privacy/redact-sync.js';

/**
 * PRIV-1 at rest (issue 13): a hook payload as the spool may keep it. A spooled event can wait
 * days for an ingester, and its payload holds the conversation in the assistant's words —
 * Claude Code's and Codex's `last_assistant_message`, Gemini's `prompt` and `prompt_response`,
 * PostCompact's `compact_summary`, and whatever fields a newer release adds. So every string in
 * it is masked, not a list of known text fields, with the synchronous redactor (the one the hook
 * client can afford: no packages; secretlint's rule set runs later, on what capture stores).
 *
 * Ingestion reads the spool as before: the reply is looked up in the transcript redacted anyway
 * (handle-queued-call.ts; redacting twice changes nothing), turn keys come from the transcript,
 * and memory ids from the event id and time — none of them from the masked text.
 */

/** Deeper than any hook payload; below this the rest is kept as one redacted JSON string. */
const MAX_DEPTH = 16;

const SECRET_VALUE = '[REDACTED:secret]';

function redactValue(value: unknown, key: string | undefined, depth: number): unknown {
  // `{"password": "hunter2"}`: the value alone does not look like a secret, its key says it is.
  if (key !== undefined && (typeof value === 'string' || typeof value === 'number') && isSecretKeyName(key)) return SECRET_VALUE;
  if (typeof value === 'string') return redactSync(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return redactSync(JSON.stringify(value));
  if (Array.isArray(value)) return value.map((item) => redactValue(item, undefined, depth + 1));
  // fromEntries, not assignment: a `__proto__` field (JSON.parse makes it an own field) stays a field.
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [redactSync(name), redactValue(item, name, depth + 1)]));
}

/**
 * The payload with every string masked, except the identifiers ingestion reads as they are
 * (IDENTIFIER_FIELDS: session id, transcript path, cwd…): a Gemini transcript path holds a
 * 64-hex project hash that the hex-token pattern would mask, and the turn would be lost.
 */
export function redactPayloadForSpool(payload: unknown): unknown {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return redactValue(payload, undefined, 0);
  return Object.fromEntries(
    Object.entries(payload).map(([name, value]) =>
      IDENTIFIER_FIELDS.has(name) && (value === null || typeof value !== 'object')
        ? [name, value]
        : [redactSync(name), redactValue(value, name, 1)],
    ),
  );
}
