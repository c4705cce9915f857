import type { DialogEntry } from './dialog-turns.js';
import { stripInjectedText } from '../injected-text.js';
import { contentTexts, isRecord, parseRecord } from './transcript-text.js';

/*
 * Gemini CLI transcript (best effort: its format is not documented as a contract). Assumed
 * shape, from Gemini CLI's ChatRecordingService: `~/.gemini/tmp/<project hash>/chats/
 * session-<date>-<id>.json`, ONE JSON document rewritten on every message and pretty-printed
 * with two-space indentation:
 *
 *   {
 *     "sessionId": "…", "projectHash": "…", "startTime": "…", "lastUpdated": "…",
 *     "messages": [
 *       {
 *         "id": "…", "timestamp": "…", "type": "user" | "gemini" | "info" | "error" | "warning",
 *         "content": "text" | [{ "text": "…", "thought"?: true } | { "functionCall": … } …],
 *         "thoughts"?: […], "toolCalls"?: […], "tokens"?: {…}, "model"?: "…"
 *       },
 *       …
 *     ]
 *   }
 *
 * Read from the end like the others, each message is the block between a line that is exactly
 * `    }` (or `    },`) and the line `    {` above it — the indentation JSON.stringify gives the
 * elements of `messages`. Two other shapes are accepted: the whole document on one line
 * (compact JSON, read when it is under the line limit), and one message object per line (JSONL).
 * Known loss: a message with a line over the reader's length limit (a tool result of several
 * megabytes inside `toolCalls`) cannot be parsed and is skipped with its text.
 */

const MESSAGE_START = /^ {4}\{\s*$/;
const MESSAGE_END = /^ {4}\},?\s*$/;
/** A message block longer than this many lines is abandoned (a malformed or unexpected file). */
const MAX_BLOCK_LINES = 200_000;

/** Gemini appends the files a prompt @-mentions after this line; the user typed only what is above it. */
const REFERENCED_FILES = '\n--- Content from referenced files ---';

/** A Gemini user text without the @-mentioned files' contents it appended (transcript and AfterAgent `prompt`). */
export function withoutReferencedFiles(text: string): string {
  const cut = text.indexOf(REFERENCED_FILES);
  return cut >= 0 ? text.slice(0, cut) : text;
}

function messageEntries(message: unknown): DialogEntry[] {
  if (!isRecord(message)) return [];
  const type = message.type;
  const role = type === 'user' ? 'user' : type === 'gemini' || type === 'model' || type === 'assistant' ? 'assistant' : undefined;
  if (!role) return [];
  const timestamp = typeof message.timestamp === 'string' ? message.timestamp : undefined;
  const entries: DialogEntry[] = [];
  for (const raw of contentTexts(message.content, ['text'], true)) {
    // The first user message holds SessionStart's `<hook_context>` before the prompt, and
    // BeforeAgent's after it (ASSISTANTS.md §Seen with the real clients): not the user's words.
    const text = role === 'user' ? stripInjectedText(withoutReferencedFiles(raw)) : raw.trim();
    if (text !== '') entries.push(timestamp ? { role, text, timestamp } : { role, text });
  }
  return entries;
}

/**
 * A parser for lines that arrive newest first. Stateful (a pretty-printed message spans many
 * lines), so make a new one per file. Returns each line's entries in file order.
 */
export function createGeminiLineParser(): (line: string) => DialogEntry[] {
  let block: string[] | undefined;
  return (line) => {
    if (block) {
      block.push(line);
      if (MESSAGE_START.test(line)) {
        // The block ends with `},` unless it is the last message: the comma is the array's.
        const record = parseRecord(block.reverse().join('\n').replace(/,\s*$/, ''));
        block = undefined;
        return messageEntries(record);
      }
      if (block.length > MAX_BLOCK_LINES) block = undefined;
      return [];
    }
    if (MESSAGE_END.test(line)) {
      block = [line];
      return [];
    }
    const trimmed = line.trim();
    if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return [];
    const record = parseRecord(trimmed);
    if (!record) return [];
    if (Array.isArray(record.messages)) return record.messages.flatMap(messageEntries);
    return messageEntries(record);
  };
}
