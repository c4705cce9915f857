import { ASSISTANTS, HOOK_EVENTS } from './hook-events.js';
import type { HookRequest } from './hook-protocol.js';
import { PROTOCOL_VERSION } from './hook-wire.js';

const ASSISTANT_NAMES: ReadonlySet<unknown> = new Set(ASSISTANTS);
const EVENT_NAMES: ReadonlySet<unknown> = new Set(HOOK_EVENTS);

const stringOf = (value: unknown, min: number, max: number): value is string =>
  typeof value === 'string' && value.length >= min && value.length <= max;

/** A JSON object as JSON.parse makes it, whose every value is a string, and no `__proto__` key (zod drops that one). */
function plainStringRecord(value: unknown): value is Record<string, string> {
  if (!value || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  if (Object.hasOwn(value, '__proto__')) return false;
  for (const key in value) if (typeof (value as Record<string, unknown>)[key] !== 'string') return false;
  return true;
}

/**
 * A hook request exactly as hook-protocol.ts's zod schema would give it, checked by hand — or
 * undefined, for zod to check and to word the problem. Every hook event the daemon answers goes
 * through here, and zod's check was 0.15 ms of each (the daemon's profile in the hooks bench,
 * session 31) against a few microseconds for these tests. The parity test
 * (hook-request-check.test.ts) holds it to the schema: it never accepts what the schema rejects,
 * and what it accepts equals the schema's output (unknown keys dropped).
 */
export function acceptHookRequest(value: Record<string, unknown>): HookRequest | undefined {
  const { v, id, token, kind, assistant, event, env, at } = value;
  if (v !== PROTOCOL_VERSION || kind !== 'hook' || !Object.hasOwn(value, 'payload')) return undefined;
  if (!stringOf(id, 1, 128) || !stringOf(token, 0, 256)) return undefined;
  if (!ASSISTANT_NAMES.has(assistant) || !EVENT_NAMES.has(event)) return undefined;
  if (at !== undefined && !stringOf(at, 0, 40)) return undefined;
  if (env !== undefined && !plainStringRecord(env)) return undefined;
  const request = { v, id, token, kind, assistant, event, payload: value.payload } as HookRequest;
  if (env !== undefined) request.env = env;
  if (at !== undefined) request.at = at;
  return request;
}
