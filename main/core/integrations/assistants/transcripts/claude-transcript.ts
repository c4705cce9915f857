import { HOOK_INJECTION_TAGS, stripInjectedText } from '../injected-text.js';
import type { DialogEntry } from './dialog-turns.js';
import { contentTexts, isRecord, parseRecord, stripTaggedBlocks } from './transcript-text.js';

/**
 * Markup Claude Code adds to user messages: slash-command echoes and their output, `!` shell
 * input/output, task notifications — and every hook's injected text (injected-text.ts: system
 * reminders, hook output written inline by older versions). None of it was said by the user.
 */
const HARNESS_TAGS = [
  ...HOOK_INJECTION_TAGS,
  'command-name',
  'command-message',
  'command-args',
  'command-contents',
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'bash-input',
  'bash-stdout',
  'bash-stderr',
  'task-notification',
];

/**
 * Tested on a line's bytes before it is decoded (most of a long session is tool traffic, and
 * its lines are the big ones). Claude Code writes compact JSON, so `"type":"tool_result"` can
 * only be structure: inside a string its quotes would be escaped. Such lines, and tool_use
 * lines without a text block, never carry dialog.
 */
export function claudeLineMayHoldDialog(line: Buffer): boolean {
  if (!line.includes('"user"') && !line.includes('"assistant"')) return false;
  if (line.includes('"type":"tool_result"')) return false;
  return !line.includes('"type":"tool_use"') || line.includes('"type":"text"');
}

/** Written as user text when the user presses Esc; not something the user said. */
const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]$/;

/**
 * One Claude Code transcript line → its dialog text (ASSISTANTS.md §Transcripts, CTX-6).
 * Kept: `user`/`assistant` lines' text blocks. Dropped: every other line type (`summary`,
 * `system` incl. `compact_boundary`, `attachment`, where newer versions keep hook-injected
 * context), `isMeta`, `isCompactSummary` (the "This session is being continued…" summary),
 * `isSidechain` (a sub-agent's conversation), API-error placeholders, tool_use / tool_result /
 * thinking / image blocks, and user lines that carry tool results (their text is harness text).
 */
export function parseClaudeLine(line: string): DialogEntry[] {
  const record = parseRecord(line);
  if (!record) return [];
  const role = record.type;
  if (role !== 'user' && role !== 'assistant') return [];
  if (record.isSidechain === true || record.isMeta === true || record.isCompactSummary === true) return [];
  if (record.isVisibleInTranscriptOnly === true || record.isApiErrorMessage === true) return [];
  const message = record.message;
  if (!isRecord(message) || message.model === '<synthetic>') return [];
  const content = message.content;
  if (Array.isArray(content) && content.some((block) => isRecord(block) && block.type === 'tool_result')) return [];
  const timestamp = typeof record.timestamp === 'string' ? record.timestamp : undefined;
  const entries: DialogEntry[] = [];
  for (const raw of contentTexts(content, ['text'])) {
    const text = role === 'user' ? stripInjectedText(stripTaggedBlocks(raw, HARNESS_TAGS)) : raw.trim();
    if (text === '' || INTERRUPTED.test(text)) continue;
    entries.push(timestamp ? { role, text, timestamp } : { role, text });
  }
  return entries;
}
