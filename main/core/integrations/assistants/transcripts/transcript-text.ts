/**
 * Small pure helpers the three transcript parsers share: reading text parts out of message
 * content, and removing the harness's own markup from text a user did not type.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON.parse that answers undefined for anything but an object (torn lines, noise). */
export function parseRecord(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The text of message content: a plain string, or the `text` of the parts whose `type` is one of
 * `partTypes` (a part with no `type` counts when `untyped` is true: Gemini's parts have none).
 * Images, tool calls and results, thinking and every other part type are left out.
 */
export function contentTexts(content: unknown, partTypes: readonly string[], untyped = false): string[] {
  if (typeof content === 'string') return [content];
  const parts = Array.isArray(content) ? content : isRecord(content) ? [content] : [];
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      texts.push(part);
      continue;
    }
    if (!isRecord(part) || typeof part.text !== 'string' || part.thought === true) continue;
    const type = part.type;
    if (typeof type === 'string' ? partTypes.includes(type) : untyped) texts.push(part.text);
  }
  return texts;
}

const tagPatterns = new Map<string, RegExp>();

/**
 * Remove `<tag …>…</tag>` blocks the harness wraps around text it adds to a user message
 * (system reminders, slash-command echoes, hook output, environment context). What is left,
 * trimmed, is what the user typed; '' when it was all markup.
 */
export function stripTaggedBlocks(text: string, tags: readonly string[]): string {
  // No tag without a '<': most prompts are spared building the pattern (a hook's start, X-PERF).
  if (!text.includes('<')) return text.trim();
  const key = tags.join('|');
  let pattern = tagPatterns.get(key);
  if (!pattern) {
    pattern = new RegExp(String.raw`<(${key})(?:\s[^>]*)?>[\s\S]*?</\1>`, 'g');
    tagPatterns.set(key, pattern);
  }
  return text.replace(pattern, '').trim();
}
