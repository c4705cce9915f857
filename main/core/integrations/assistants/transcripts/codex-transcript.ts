import { HOOK_INJECTION_TAGS, stripInjectedText } from '../injected-text.js';
import type { DialogEntry } from './dialog-turns.js';
import { contentTexts, isRecord, parseRecord, stripTaggedBlocks } from './transcript-text.js';

/**
 * Text Codex sends to the model as a "user" message without the user typing it: the
 * environment and instruction preambles, AGENTS.md, `!` shell commands, abort notices, and the
 * summary a compaction hands to the next model (Codex's SUMMARY_PREFIX).
 */
const SCAFFOLD_PREFIXES = [
  '<environment_context',
  '<user_instructions',
  '<INSTRUCTIONS',
  '# AGENTS.md instructions',
  '<user_shell_command',
  '<turn_aborted',
  '<subagent_notification',
  'Another language model started to solve this problem',
];
/** The scaffolding's tags, and any hook's injected text should a Codex version put it in a user message. */
const SCAFFOLD_TAGS = [
  'environment_context',
  'user_instructions',
  'INSTRUCTIONS',
  'user_shell_command',
  'turn_aborted',
  ...HOOK_INJECTION_TAGS,
];

/**
 * Tested on a line's bytes before decoding: only message items hold dialog, and Codex writes
 * compact JSON (serde_json), where `"type":"message"` in a tool's output would be escaped.
 * Function call outputs — the big lines — are skipped undecoded.
 */
export function codexLineMayHoldDialog(line: Buffer): boolean {
  return line.includes('"type":"message"');
}

/**
 * One Codex rollout line → its dialog text. Rollout lines are `{timestamp, type, payload}`;
 * only `response_item` messages of role user/assistant carry dialog (`input_text` /
 * `output_text` parts). Dropped: `session_meta`, `turn_context`, `compacted`, `event_msg` (it
 * repeats the same messages for the UI: reading both would double every turn), `reasoning`,
 * `function_call(_output)`, `developer`/`system` messages (instructions, and where hook context
 * lands: Codex's HookAdditionalContext is a developer message), and user scaffolding. Rollouts from before the envelope (a bare `{type:"message"}`
 * per line) are read too.
 */
export function parseCodexLine(line: string): DialogEntry[] {
  const record = parseRecord(line);
  if (!record) return [];
  const item = record.type === 'response_item' ? record.payload : record.type === 'message' ? record : undefined;
  if (!isRecord(item) || item.type !== 'message') return [];
  const role = item.role;
  if (role !== 'user' && role !== 'assistant') return [];
  const timestamp = typeof record.timestamp === 'string' ? record.timestamp : undefined;
  const entries: DialogEntry[] = [];
  for (const raw of contentTexts(item.content, ['input_text', 'output_text', 'text'])) {
    const trimmed = raw.trim();
    if (role === 'user' && SCAFFOLD_PREFIXES.some((prefix) => trimmed.startsWith(prefix))) continue;
    const text = role === 'user' ? stripInjectedText(stripTaggedBlocks(trimmed, SCAFFOLD_TAGS)) : trimmed;
    if (text === '') continue;
    entries.push(timestamp ? { role, text, timestamp } : { role, text });
  }
  return entries;
}
