import fs from 'node:fs';

/**
 * Reading the hook socket's token (see token.ts for why it exists). Split from token.ts so the
 * hook client's fast path reads it without loading node:crypto, which token.ts needs only to
 * mint and compare tokens (X-PERF: every module the hook loads is paid on every event).
 */
export const TOKEN_RE = /^[0-9a-f]{64}$/;

/** What a client does: the token, or undefined when there is none (no app has started here). */
export function readToken(tokenFile: string): string | undefined {
  try {
    const text = fs.readFileSync(tokenFile, 'utf8').trim();
    return TOKEN_RE.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}
