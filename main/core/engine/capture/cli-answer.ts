import { z } from 'zod';
import { CATEGORIES, MEMORY_TYPES } from '../../../../common/memory.js';
import type { BondDirection } from '../../store/memory/bonds.js';
import { redactSync } from '../../platform/privacy/redact-sync.js';
import type { CliOutputFormat } from '../llm-cli/cli-commands.js';
import { CondenseFailure, type CondensedMemory } from './capture-types.js';

/**
 * Reading a CLI's stdout: first unwrap the CLI's own envelope to the model's answer text, then
 * find and validate the JSON answer the prompt asked for. Every way this can go wrong becomes a
 * CondenseFailure of its own kind, and messages carry the output length and its first 200
 * characters, redacted (SLEEP-5: "tell an execution error from truncated/invalid JSON").
 */
const MAX_MEMORIES = 4;

function preview(text: string): string {
  return JSON.stringify(redactSync(text.slice(0, 200)));
}

function fail(kind: CondenseFailure['kind'], what: string, output: string): CondenseFailure {
  return new CondenseFailure(kind, `${what} (output ${output.length} chars, starts ${preview(output)})`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Claude's CLI says "Execution error" (as its result, or alone on stdout) when the run itself broke. */
const EXECUTION_ERROR = /^\s*execution error/i;

/** The model's answer text inside the CLI's envelope. */
export function unwrapCliOutput(format: CliOutputFormat, stdout: string): string {
  const output = stdout.trim();
  if (!output) throw new CondenseFailure('empty-output', 'the CLI printed nothing');
  if (EXECUTION_ERROR.test(output)) throw fail('execution-error', 'the CLI reported an execution error', output);
  if (format === 'text') return output;
  if (format === 'opencode-json') {
    const parts: string[] = [];
    for (const line of output.split(/\r?\n/)) {
      let event: unknown;
      try {
        event = JSON.parse(line);
      } catch {
        continue;
      }
      if (!isObject(event)) continue;
      if (event.type === 'error') throw fail('execution-error', 'opencode reported an error event', line);
      const part = event.part;
      if (event.type === 'text' && isObject(part) && typeof part.text === 'string') parts.push(part.text);
    }
    if (!parts.length) throw fail('invalid-json', 'opencode printed no text event', output);
    return parts.join('');
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(output);
  } catch {
    throw fail(looksTruncated(output) ? 'truncated-json' : 'invalid-json', `the ${format} envelope is not JSON`, output);
  }
  if (!isObject(envelope)) throw fail('invalid-json', `the ${format} envelope is not a JSON object`, output);
  if (format === 'claude-json') {
    const result = typeof envelope.result === 'string' ? envelope.result : '';
    if (envelope.is_error === true || EXECUTION_ERROR.test(result))
      throw fail('execution-error', 'claude reported is_error', result || output);
    if (!result.trim()) throw fail('empty-output', 'claude returned an empty result', output);
    return result;
  }
  if (envelope.error !== undefined && envelope.error !== null)
    throw fail('execution-error', 'gemini reported an error', JSON.stringify(envelope.error));
  const response = typeof envelope.response === 'string' ? envelope.response : '';
  if (!response.trim()) throw fail('empty-output', 'gemini returned an empty response', output);
  return response;
}

/** More `{`/`[` opened than closed outside strings: the text was cut off, not malformed. */
function looksTruncated(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
  }
  return depth > 0 || inString;
}

const DIRECTIONS: Record<string, BondDirection> = {
  '使用者→角色': 'user-to-role',
  '角色→使用者': 'role-to-user',
  相互: 'mutual',
  'user-to-role': 'user-to-role',
  'role-to-user': 'role-to-user',
  mutual: 'mutual',
};

const text = z.string().trim().min(1);
const answerSchema = z.object({
  memories: z
    .array(
      z.object({
        category: z.enum(CATEGORIES).catch('other'),
        summary: text,
        tags: z.array(z.coerce.string()).default([]),
        priority: z.coerce.number().int().min(1).max(5),
        relevance: z.array(z.coerce.string()).default([]),
        memory_type: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(MEMORY_TYPES)),
        key_points: z.array(z.coerce.string()).default([]),
        expires: z.string().nullish(),
        bond: z
          .object({
            text,
            direction: z.preprocess(
              (v) => (typeof v === 'string' ? DIRECTIONS[v.replace(/\s+/g, '').replace(/->/g, '→')] : v),
              z.enum(['user-to-role', 'role-to-user', 'mutual']),
            ),
          })
          .nullish(),
      }),
    )
    .min(1)
    .max(MAX_MEMORIES),
});

/**
 * The JSON candidates in an answer: fenced code stripped, then the span from the first `{` to the
 * last `}` and from the first `[` to the last `]` (a model may answer with the bare list), the
 * earlier-starting one first; prose around them is ignored.
 */
function jsonCandidates(answer: string): string[] {
  const fenced = /```(?:json)?\s*([\s\S]*?)(?:```|$)/i.exec(answer);
  const body = (fenced ? fenced[1]! : answer).trim();
  const spans: Array<[number, string]> = [];
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ] as const) {
    const from = body.indexOf(open);
    if (from === -1) continue;
    const to = body.lastIndexOf(close);
    spans.push([from, to > from ? body.slice(from, to + 1) : body.slice(from)]);
  }
  return spans.length ? spans.sort((a, b) => a[0] - b[0]).map(([, span]) => span) : [body];
}

/** The model's answer → memories, or a CondenseFailure (thrown). */
export function parseCondensedAnswer(answer: string): CondensedMemory[] {
  const candidates = jsonCandidates(answer);
  let raw: unknown;
  const parsedOne = candidates.some((json) => {
    try {
      raw = JSON.parse(json);
      return true;
    } catch {
      return false;
    }
  });
  if (!parsedOne) {
    throw fail(looksTruncated(candidates[0]!) ? 'truncated-json' : 'invalid-json', 'the answer is not valid JSON', answer);
  }
  const parsed = answerSchema.safeParse(Array.isArray(raw) ? { memories: raw } : raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw fail('schema-mismatch', `the answer does not match the schema (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''})`, answer);
  }
  return parsed.data.memories.map((m) => ({
    category: m.category,
    summary: m.summary,
    tags: m.tags.map((t) => t.trim()).filter(Boolean),
    priority: m.priority,
    relevance: m.relevance.map((r) => r.trim()).filter(Boolean),
    memory_type: m.memory_type,
    keyPoints: m.key_points.map((p) => p.trim()).filter(Boolean),
    ...(m.expires?.trim() ? { expires: m.expires.trim() } : {}),
    ...(m.bond ? { bond: { text: m.bond.text, direction: m.bond.direction } } : {}),
  }));
}
