/**
 * `scheme://user:password@host` in prose (PRIV-1). A regular expression cannot find these
 * reliably: passwords hold `@`, `/`, `#` and `?` unencoded (`mysql://root:p@ssw0rd@localhost`,
 * `postgres://admin:pa/ss#word@db.local`), and the user may be empty (`redis://:pw@cache`). So
 * the user info is taken as everything from `://` to the LAST `@` of the URL, and masked when it
 * holds a `:`. Part of redact-sync.ts: no dependencies (the hook client loads it).
 */
export interface Span {
  start: number;
  end: number;
}

const SCHEME = /\b[a-z][a-z0-9+.-]{1,20}:\/\//gi;
/**
 * Where a URL written in prose ends: whitespace, or Chinese text resuming without a space
 * (`連到 postgres://u:p@db，密碼…`). CJK, kana, full-width forms and the like are all above U+2E80.
 */
const URL_END = /[\s\u2E80-\uFFFF]/g;
/** `host:port/` — the `@` that follows belongs to the path (`http://localhost:4873/@scope/pkg`). */
const PORT_THEN_PATH = /[0-9]{1,5}[/?#]/y;

/**
 * Whether text[start, at) is user info. A path or query before the first `:` means the last
 * `@` is in the path or query (`https://host/wiki/File:a@2x.png`, `https://host/?q=a:b@c`):
 * no real user name holds `/`, `?` or `#`. Scans only up to that first `:` (every `://` has
 * one), so consecutive URLs in one run are each scanned once.
 */
function isUserInfo(text: string, start: number, at: number): boolean {
  for (let i = start; i < at; i++) {
    const char = text[i];
    if (char === '/' || char === '?' || char === '#') return false;
    if (char === ':') {
      PORT_THEN_PATH.lastIndex = i + 1;
      return !PORT_THEN_PATH.test(text);
    }
  }
  return false;
}

/**
 * The `user:password` of every URL (scheme and host stay visible). Linear time: each
 * whitespace-free run is measured and searched for its last `@` once, however many `://` it
 * holds, and isUserInfo stops at the next `:`, so no input makes this quadratic.
 */
export function findUrlCredentials(text: string): Span[] {
  const spans: Span[] = [];
  let runEnd = -1;
  let lastAt = -1;
  let coveredUntil = -1;
  for (const match of text.matchAll(SCHEME)) {
    const start = match.index + match[0].length;
    if (start > runEnd) {
      URL_END.lastIndex = start;
      runEnd = URL_END.exec(text)?.index ?? text.length;
      lastAt = -1;
      for (let i = start; i < runEnd; i++) if (text.charCodeAt(i) === 64 /* @ */) lastAt = i;
    }
    // A `://` inside user info already masked (`x://y://u:p@h`) adds nothing.
    if (start < coveredUntil) continue;
    if (lastAt > start && isUserInfo(text, start, lastAt)) {
      spans.push({ start, end: lastAt });
      coveredUntil = lastAt;
    }
  }
  return spans;
}
