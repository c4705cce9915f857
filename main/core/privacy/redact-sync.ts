/**
 * PRIV-1, seed 000 §機密與 PII, second line of defence: the prompts already forbid secrets, but
 * "模型不一定遵守指令，而記憶會被長期保存並在每次啟動時載入" — so every text is masked by pattern
 * before it is stored or injected. This file is the synchronous half (no dependencies, safe for
 * the hook client's hot path); redact.ts adds secretlint's rule set on top for stored text.
 *
 * Each pattern reports the range of the secret only (not the `password=` in front of it, not a
 * URL's host), so the redacted text keeps enough context to stay readable:
 * `https://[REDACTED:url-credentials]@example.com`.
 */
export interface SecretRange {
  start: number;
  end: number;
  /** Shown in the placeholder: `[REDACTED:<kind>]`. */
  kind: string;
}

interface SecretPattern {
  kind: string;
  /** Must carry the `g` and `d` flags (`d` gives the capture group's offsets). */
  pattern: RegExp;
  /** The capture group that holds the secret; 0 = the whole match. */
  group: number;
}

// Key words whose value is a secret (`token=`, `password=` … in the seed, plus the usual spellings).
// The key may carry a prefix (GITHUB_TOKEN, db_password) but must end with the key word, so that
// `max_tokens=4096` or `secretary: 王小姐` are left alone. `pwd` is not a key word: in a shell
// transcript `PWD=/home/…` is the working folder far more often than a password.
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]{0,40}?(?:token|password|passwd|secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key)`;
const VALUE_END = String.raw`[^\s"'&,;<>，。；、）)]+`;

/**
 * Order matters only for readability of overlaps (the first-starting range names the
 * placeholder); every pattern is bounded so that a 50 KB text costs a few milliseconds and no
 * input can make a pattern backtrack quadratically.
 */
const PATTERNS: SecretPattern[] = [
  { kind: 'private-key', group: 0, pattern: /-----BEGIN ([A-Z0-9 ]{0,40})PRIVATE KEY-----(?:[\s\S]{0,20000}?-----END \1PRIVATE KEY-----|[A-Za-z0-9+/=\s\\]{0,20000})/dg },
  // scheme://user:pass@host, or a bare token as the user (https://ghp_…@github.com); `git@` stays.
  { kind: 'url-credentials', group: 1, pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/([^\s:@/?#]{1,256}:[^\s@/?#]{1,256}|[^\s:@/?#]{16,256})@/dgi },
  { kind: 'authorization', group: 1, pattern: /\bauthorization["']?[ \t]*[:=][ \t]*["']?(?:(?:bearer|basic|token|digest|negotiate)[ \t]+)?([^\s"',;]{1,4096})/dgi },
  { kind: 'authorization', group: 1, pattern: /\bbearer[ \t]+([A-Za-z0-9._~+/-]{12,4096}=*)/dgi },
  { kind: 'github-token', group: 0, pattern: /\b(?:gh[a-z]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})\b/dg },
  { kind: 'api-key', group: 0, pattern: /\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{16,512}/dg },
  { kind: 'api-key', group: 0, pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,255}/dg },
  { kind: 'aws-key', group: 0, pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}\b/dg },
  { kind: 'slack-token', group: 0, pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,255}/dg },
  { kind: 'secret', group: 1, pattern: new RegExp(String.raw`(?<![A-Za-z0-9])${SECRET_KEY}["']?[ \t]*[:=：][ \t]*["']?(${VALUE_END})`, 'dgi') },
  { kind: 'secret', group: 1, pattern: new RegExp(String.raw`(?:密碼|密码|口令|金鑰|密鑰|密钥|權杖|令牌)[ \t]*[:=：][ \t]*(${VALUE_END})`, 'dg') },
  // Not the `user:pass@host` or `git@host` of a URL: that is url-credentials' (or nobody's) business.
  { kind: 'email', group: 0, pattern: /(?<![A-Za-z0-9._%+-])(?<!:\/\/[^\s/@]{0,256})[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/dg },
  // Taiwan mobile numbers: 0912-345-678, 0912345678, 0912 345 678, +886 912 345 678, +886-912345678.
  { kind: 'phone', group: 0, pattern: /(?<![0-9])(?:\+886[ -]?|0)9[0-9]{2}[ -]?[0-9]{3}[ -]?[0-9]{3}(?![0-9])/dg },
  // Taiwan national ID (A123456789 / B234567890) and the new-format resident certificate (A800000014).
  { kind: 'national-id', group: 0, pattern: /(?<![A-Za-z0-9])[A-Z][1289][0-9]{8}(?![A-Za-z0-9])/dg },
  // 40+ hex digits: API tokens and also git commit SHAs; the seed accepts masking a SHA as the price.
  { kind: 'hex-token', group: 0, pattern: /(?<![0-9A-Fa-f])[0-9A-Fa-f]{40,}(?![0-9A-Fa-f])/dg },
];

/** Where the secrets in a text are, by our own patterns. */
export function findSecretsSync(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const { kind, pattern, group } of PATTERNS) {
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      const span = match.indices?.[group];
      if (span && span[1] > span[0]) ranges.push({ start: span[0], end: span[1], kind });
    }
  }
  return ranges;
}

/**
 * Replace the ranges with `[REDACTED:<kind>]`. Overlapping ranges become one placeholder named
 * after the range that starts first (the longer one on a tie).
 */
export function applyRedactions(text: string, ranges: readonly SecretRange[]): string {
  if (ranges.length === 0) return text;
  const sorted = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.start < last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  let out = '';
  let cursor = 0;
  for (const { start, end, kind } of merged) {
    out += `${text.slice(cursor, start)}[REDACTED:${kind}]`;
    cursor = end;
  }
  return out + text.slice(cursor);
}

/** Mask every secret our own patterns know. Pure and fast: for hot paths (hooks, injection). */
export function redactSync(text: string): string {
  return applyRedactions(text, findSecretsSync(text));
}
