/**
 * Writes frontmatter the way seed 000's scripts do: one `key: value` line per field, flow lists
 * on one line. We write our own emitter instead of js-yaml's `dump` because dump folds long
 * lines, picks block styles and reorders nothing predictably, which would rewrite every line of
 * a user's file on the first touch. Output is always valid YAML (JSON-style quoting when needed).
 */
const NEEDS_QUOTES = /[:#,[\]{}&*!|>'"%@`\n\r\t\\]|^[-?\s]|\s$|^$/;
const LOOKS_TYPED = /^(?:true|false|null|~|yes|no|on|off|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|0x[0-9a-f]+|\.inf|\.nan)$/i;

export function formatScalar(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : JSON.stringify(String(value));
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (NEEDS_QUOTES.test(text) || LOOKS_TYPED.test(text)) return JSON.stringify(text);
  return text;
}

function formatValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => formatScalar(item)).join(', ')}]`;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return formatScalar(value);
}

export function stringifyFrontmatter(data: Record<string, unknown>, body: string): string {
  const lines = ['---'];
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const formatted = formatValue(value);
    lines.push(formatted === '' ? `${key}:` : `${key}: ${formatted}`);
  }
  lines.push('---');
  const trimmedBody = body.replace(/^\r?\n+/, '');
  return `${lines.join('\n')}\n\n${trimmedBody}${trimmedBody.endsWith('\n') || trimmedBody === '' ? '' : '\n'}`;
}
