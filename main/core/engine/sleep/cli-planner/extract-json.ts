/**
 * Finding the one JSON object in a model's answer. Models wrap it in a ```json fence or put a
 * sentence before it despite the prompt; both are tolerated. What is told apart is *why* no object
 * could be read, because SLEEP-5 answers the two differently: an object that
 * was cut off (「輸出是不完整的 JSON」 → halve the batch) versus an answer that simply is not JSON.
 */
export type ExtractedJson = { ok: true; value: Record<string, unknown> } | { ok: false; kind: 'truncated' | 'invalid'; reason: string };

/** The fenced block's content when the answer has one (an unclosed fence runs to the end). */
function fencedBody(answer: string): string {
  const fence = /```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)(?:```|$)/.exec(answer);
  return fence && fence[1]!.includes('{') ? fence[1]! : answer;
}

/** The index just past the `}` that closes the `{` at `from`, or -1 when the text ends first. */
function closingBrace(text: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

const MAX_STARTS = 50;

export function extractJsonObject(answer: string): ExtractedJson {
  const body = fencedBody(answer);
  let start = body.indexOf('{');
  if (start === -1) return { ok: false, kind: 'invalid', reason: 'the answer holds no JSON object' };
  let parseError = '';
  for (let tries = 0; start !== -1 && tries < MAX_STARTS; tries++) {
    const end = closingBrace(body, start);
    // Everything after an unclosed `{` belongs to it: the text stopped mid-object.
    if (end === -1) return { ok: false, kind: 'truncated', reason: 'the JSON object is not closed (the output stops in the middle)' };
    try {
      const value: unknown = JSON.parse(body.slice(start, end));
      if (value && typeof value === 'object' && !Array.isArray(value)) return { ok: true, value: value as Record<string, unknown> };
      parseError ||= 'the JSON is not an object';
    } catch (error) {
      parseError ||= (error as Error).message;
    }
    // Skip the whole span: an object nested in a broken one must not pass for the answer.
    start = body.indexOf('{', end);
  }
  return { ok: false, kind: 'invalid', reason: `the answer is not valid JSON (${parseError})` };
}
