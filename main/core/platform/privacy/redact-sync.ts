/**
 * PRIV-1, second line of defence: models do not always obey, and memories are kept and re-injected,
 * so every text is masked by pattern first.
 * Design notes: docs/design-notes.md, "main/core/platform/privacy/redact-sync.ts".
 */
import { findUrlCredentials } from './url-credentials.js';

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
  /** The capture group that holds the secret; 0 = the whole match. Several: the first that matched. */
  group: number | readonly number[];
  /** Vetoes a match that only looks like a secret (see isDeveloperAddress). */
  keep?: (text: string, start: number, end: number) => boolean;
  /**
   * Words of which every match holds one, in lower case (see `admits`): a text without any of
   * them is not searched. Left out where no word is certain (phone numbers, IDs, hex).
   */
  needs?: readonly string[];
}

// Key words whose value is a secret (`token=`, `password=` … as PRIV-1 lists, plus the usual spellings).
// The key may carry a prefix (GITHUB_TOKEN, db_password) but must end with the key word, so that
// `max_tokens=4096` or `secretary: 王小姐` are left alone. `pass` needs a separator before it
// (DB_PASS, --pass) or nothing, so `bypass=` and `compass:` stay. `pwd` is not a key word: in a
// shell transcript `PWD=/home/…` is the working folder far more often than a password.
const SECRET_KEY = String.raw`(?:[A-Za-z0-9_.-]{0,40}?(?:token|password|passwd|passphrase|secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key)|(?:[A-Za-z0-9_.-]{0,40}?[_.-])?pass)`;
const VALUE_END = String.raw`[^\s"'&,;<>，。；、）)]+`;
// A quoted value may hold spaces (`password = "correct horse battery staple"`); an unquoted one
// ends at the first space or delimiter. Capped at 512 characters and one line, so an unclosed
// quote costs a bounded scan and falls back to the unquoted form.
const SECRET_VALUE = String.raw`(?:"([^"\n]{1,512})"|'([^'\n]{1,512})'|“([^”\n]{1,512})”|「([^」\n]{1,512})」|["'“「]?(${VALUE_END}))`;
const SECRET_VALUE_GROUPS = [1, 2, 3, 4, 5] as const;

// Horizontal space as Taiwanese users type it: the ideographic space (U+3000) comes with a
// full-width IME as easily as an ASCII one.
const HSPACE = String.raw`[ \t\u3000]`;
// Credential words as people write them in Traditional and Simplified Chinese.
const ZH_SECRET_WORDS = ['密碼', '密码', '口令', '通行碼', '通行码', '金鑰', '密鑰', '密钥', '權杖', '权杖', '令牌'];
const ZH_SECRET_WORD = `(?:${ZH_SECRET_WORDS.join('|')})`;
// The same words in English, standing alone (so `max_tokens 是 4096` and `secretary 是` stay).
// `pwd` is here only when its value is not a path (`PWD=/home/yui` is a shell's working folder).
const PWD_WORD = String.raw`(?<![A-Za-z0-9_])pwd(?=${HSPACE}*(?:[:=：＝]|是|為|为)${HSPACE}*[^/~.$\s])`;
const EN_SECRET_WORD = String.raw`(?:(?<![A-Za-z0-9_])(?:password|passwd|passphrase|secret|token|api[_-]?key)|${PWD_WORD})`;
// 是 / 為 ("is") between the word and its value, with or without a colon after it.
const ZH_COPULA = String.raw`(?:就是|是|為|为)${HSPACE}*[:：]?`;
// After 是/為 the words go on in prose (密碼是必填欄位, token 是什麼), so only a typed value
// counts: a quoted one, or an unbroken run of 4–256 ASCII characters that does not end in a
// sentence's punctuation. A typed value never holds Han characters.
const TYPED_VALUE = String.raw`(?:"([^"\n]{1,512})"|'([^'\n]{1,512})'|“([^”\n]{1,512})”|「([^」\n]{1,512})」|([\x21\x23-\x26\x28-\x3B\x3D\x3F-\x5F\x61-\x7E]{3,255}[^\x00-\x20\x7F-\uFFFF.,;:!?)\]}'"<>\x60]))`;

// The words a match of SECRET_KEY and EN_SECRET_WORD always holds (`needs` below).
const SECRET_KEY_WORDS = ['token', 'pass', 'secret', 'key'];
const EN_SECRET_WORDS = ['pass', 'secret', 'token', 'api', 'pwd'];
// How an AWS access key id starts (the aws-key pattern and AWS_SECRET_CONTEXT), in lower case.
const AWS_KEY_ID_PREFIXES = ['akia', 'asia', 'agpa', 'aida', 'aroa', 'aipa', 'anpa', 'anva', 'a3t'];
// What AWS_SECRET_CONTEXT matches starts with one of these: with none in the text, no key has its context.
const AWS_SECRET_CONTEXT_WORDS = [...AWS_KEY_ID_PREFIXES, 'secret', '密鑰', '金鑰', '密钥', '秘密'];

/**
 * Order matters only for readability of overlaps (the first-starting range names the
 * placeholder); every pattern is bounded so that a 50 KB text costs a few milliseconds and no
 * input can make a pattern backtrack quadratically.
 */
const PATTERNS: SecretPattern[] = [
  {
    kind: 'private-key',
    group: 0,
    needs: ['-----begin '],
    pattern: /-----BEGIN ([A-Z0-9 ]{0,40})PRIVATE KEY-----(?:[\s\S]{0,20000}?-----END \1PRIVATE KEY-----|[A-Za-z0-9+/=\s\\]{0,20000})/dg,
  },
  // A bare token as a URL's user (https://ghp_…@github.com); `user:pass@` is url-credentials.ts'
  // job. A short user without a password (ssh://git@github.com) is a user name, not a secret.
  { kind: 'url-credentials', group: 1, needs: ['://'], pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/([^\s:@/?#]{16,256})@/dgi },
  // curl -u user:pass / --user user:pass (HTTP basic auth typed on the command line).
  {
    kind: 'credentials',
    group: 1,
    needs: ['curl'],
    pattern: /\bcurl\b[^\n]{0,512}?[ \t](?:-u[ \t]*|--user(?:[ \t]+|=))["']?([^\s"':]{0,256}:[^\s"']{1,256})/dg,
  },
  {
    kind: 'authorization',
    group: 1,
    needs: ['authorization'],
    pattern: /\bauthorization["']?[ \t]*[:=][ \t]*["']?(?:(?:bearer|basic|token|digest|negotiate)[ \t]+)?([^\s"',;]{1,4096})/dgi,
  },
  { kind: 'authorization', group: 1, needs: ['bearer'], pattern: /\bbearer[ \t]+([A-Za-z0-9._~+/-]{12,4096}=*)/dgi },
  {
    kind: 'github-token',
    group: 0,
    needs: ['gh', 'github_pat_'],
    pattern: /\b(?:gh[a-z]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})\b/dg,
  },
  // GitLab personal, deploy, runner, trigger, CI job… tokens; the newer ones carry `.01.`-style parts.
  {
    kind: 'gitlab-token',
    group: 0,
    needs: ['gl'],
    pattern: /\bgl(?:pat|dt|rt|ptt|cbt|soat|ft|imt|agent)-[A-Za-z0-9_-]{20,255}(?:\.[A-Za-z0-9_-]{1,64}){0,3}/dg,
  },
  { kind: 'google-api-key', group: 0, needs: ['aiza'], pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/dg },
  { kind: 'api-key', group: 0, needs: ['sk-'], pattern: /\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{16,512}/dg },
  { kind: 'api-key', group: 0, needs: ['k_live_', 'k_test_'], pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,255}/dg },
  {
    kind: 'aws-key',
    group: 0,
    needs: AWS_KEY_ID_PREFIXES,
    pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}\b/dg,
  },
  { kind: 'slack-token', group: 0, needs: ['xox', 'xapp-'], pattern: /\b(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,255}/dg },
  // Formats secretlint's preset knows (redact.ts), here too because the hook client spools events
  // with this file alone (spool-redaction.ts): kinds named as secretlint names them, so that
  // stored text reads the same whichever of the two found the secret.
  {
    kind: 'slack',
    group: 0,
    needs: ['hooks.slack.com/services/'],
    pattern: /\bhttps:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9]{1,40}\/B[A-Za-z0-9]{1,40}\/[A-Za-z0-9]{1,40}/dgi,
  },
  { kind: 'npm', group: 0, needs: ['npm_'], pattern: /\bnpm_[A-Za-z0-9_]{36}(?![A-Za-z0-9_])/dg },
  { kind: 'linear', group: 0, needs: ['lin_api_'], pattern: /\blin_api_[A-Za-z0-9_]{32,128}(?![A-Za-z0-9_])/dg },
  { kind: 'sendgrid', group: 0, needs: ['sg.'], pattern: /\bSG\.[\w-]{16,128}\.[\w-]{16,128}(?![\w-])/dg },
  { kind: 'shopify', group: 0, needs: ['shp'], pattern: /\bshp(?:pa|ca|at|ss)_[A-Za-z0-9]{32,64}(?![A-Za-z0-9])/dg },
  { kind: '1password', group: 0, needs: ['ops_ey'], pattern: /\bops_ey[A-Za-z0-9+/=]{100,1280}/dg },
  {
    kind: 'secret',
    group: SECRET_VALUE_GROUPS,
    needs: SECRET_KEY_WORDS,
    pattern: new RegExp(String.raw`(?<![A-Za-z0-9])${SECRET_KEY}["']?${HSPACE}*[:=：＝](?!=)${HSPACE}*${SECRET_VALUE}`, 'dgi'),
  },
  {
    kind: 'secret',
    group: SECRET_VALUE_GROUPS,
    needs: ZH_SECRET_WORDS,
    pattern: new RegExp(String.raw`${ZH_SECRET_WORD}${HSPACE}*[:=：＝]${HSPACE}*${SECRET_VALUE}`, 'dg'),
  },
  // 我的密碼是 hunter2、口令為「芝麻開門」 — the word is kept, only the value goes.
  {
    kind: 'password',
    group: SECRET_VALUE_GROUPS,
    needs: ZH_SECRET_WORDS,
    pattern: new RegExp(String.raw`${ZH_SECRET_WORD}${HSPACE}*${ZH_COPULA}${HSPACE}*${TYPED_VALUE}`, 'dg'),
  },
  // password 是 abc123、token 為 tk-91a8: developers also write `token 是 optional 的`, so after an
  // English word a plain word is prose, not a value (see looksTyped).
  {
    kind: 'password',
    group: SECRET_VALUE_GROUPS,
    needs: EN_SECRET_WORDS,
    keep: looksTyped,
    pattern: new RegExp(String.raw`${EN_SECRET_WORD}${HSPACE}*${ZH_COPULA}${HSPACE}*${TYPED_VALUE}`, 'dgi'),
  },
  {
    kind: 'password',
    group: SECRET_VALUE_GROUPS,
    needs: ['pwd'],
    pattern: new RegExp(String.raw`${PWD_WORD}${HSPACE}*[:=：＝]${HSPACE}*${SECRET_VALUE}`, 'dgi'),
  },
  // A JSON Web Token: base64url `{"…` header, `{"…` payload, and a signature (empty for alg none).
  // Not preceded by a base64url character, so a long run of `eyJeyJ…` is tried once, not at every
  // offset.
  {
    kind: 'jwt',
    group: 0,
    needs: ['eyj'],
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{2,8192}\.[A-Za-z0-9_-]{0,4096}/dg,
  },
  // An AWS secret access key has no prefix of its own: exactly 40 base64 characters. Alone that is
  // any long word, so it counts only with a mixed alphabet and next to an access key id or the word
  // secret (see isAwsSecretKey); a git SHA (hex only) is never one.
  {
    kind: 'aws-secret-key',
    group: 0,
    keep: isAwsSecretKey,
    needs: AWS_SECRET_CONTEXT_WORDS,
    pattern: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/dg,
  },
  // Not the `user:pass@host` of a URL (url-credentials' business), not `git@host`, not an image's
  // density suffix (logo@2x.png). The domain must end where the address ends (no `.more` or
  // word character after it), so that the `:path` check below sees the whole host.
  {
    kind: 'email',
    group: 0,
    needs: ['@'],
    keep: (text, start, end) => !isDeveloperAddress(text, start, end),
    pattern:
      /(?<![A-Za-z0-9._%+-])(?<!:\/\/[^\s/@]{0,256})(?!git@)[A-Za-z0-9._%+-]{1,64}@(?![0-9](?:\.[0-9])?x\b)[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}(?!\w|\.[A-Za-z0-9])/dg,
  },
  // Taiwan mobile numbers: 0912-345-678, 0912345678, 0912 345 678, 0912.345.678, +886 912 345 678.
  { kind: 'phone', group: 0, pattern: /(?<![0-9])(?:\+886[ .-]?|0)9[0-9]{2}[ .-]?[0-9]{3}[ .-]?[0-9]{3}(?![0-9])/dg },
  // Taiwan national ID (A123456789, also typed in lower case) and the new-format resident
  // certificate (A800000014).
  { kind: 'national-id', group: 0, pattern: /(?<![A-Za-z0-9])[A-Za-z][1289][0-9]{8}(?![A-Za-z0-9])/dg },
  // 40+ hex digits: API tokens and also git commit SHAs; PRIV-1 accepts masking a SHA as the price.
  { kind: 'hex-token', group: 0, pattern: /(?<![0-9A-Fa-f])[0-9A-Fa-f]{40,}(?![0-9A-Fa-f])/dg },
];

// An address a developer types that is not an e-mail: `git clone git@host:org/repo.git`,
// `scp a.txt deploy@host:/tmp` (user@host followed by `:path`), and `ssh deploy@host`,
// `ssh -p 2222 deploy@host`. Hiding them would only make a memory of a deployment unreadable.
const PATH_AFTER = /:[~/\w.-]/y;
const SSH_BEFORE = /\b(?:ssh|scp|sftp|mosh)(?:[ \t]+-[A-Za-z0-9]{1,8}(?:[ \t]+[^\s@-][^\s@]{0,63})?){0,4}[ \t]+$/;

function isDeveloperAddress(text: string, start: number, end: number): boolean {
  PATH_AFTER.lastIndex = end;
  return PATH_AFTER.test(text) || SSH_BEFORE.test(text.slice(Math.max(0, start - 200), start));
}

// A quoted value, or one with a digit or a symbol in it, or a long one in mixed case
// (correctHorse1, Xy7!qa90, tk-91a8): typed, not a word of prose (optional, required, Bearer).
const QUOTE_BEFORE = new Set(['"', "'", '“', '「']);

function looksTyped(text: string, start: number, end: number): boolean {
  if (QUOTE_BEFORE.has(text[start - 1] ?? '')) return true;
  const value = text.slice(start, end);
  return /[^A-Za-z]/.test(value) || (value.length >= 8 && /.[A-Z]/.test(value) && /[a-z]/.test(value));
}

// What may stand next to an AWS secret key: its access key id, or a word that says what it is.
const AWS_SECRET_CONTEXT = /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}\b|secret|密鑰|金鑰|密钥|秘密/i;
// How far "next to" reaches, in characters either side: a line of config or a sentence.
const AWS_SECRET_REACH = 160;

function isAwsSecretKey(text: string, start: number, end: number): boolean {
  const key = text.slice(start, end);
  // Random base64 of 40 characters holds upper and lower case and a digit (the chance that it
  // lacks one is below one in 10^4); a word, a path or a hex SHA does not.
  if (!/[A-Z]/.test(key) || !/[a-z]/.test(key) || !/[0-9]/.test(key) || /^[0-9a-fA-F]+$/.test(key)) return false;
  if (new Set(key).size < 16) return false;
  const around = text.slice(Math.max(0, start - AWS_SECRET_REACH), start) + ' ' + text.slice(end, end + AWS_SECRET_REACH);
  return AWS_SECRET_CONTEXT.test(around);
}

/**
 * A key whose value is a secret whatever it looks like (`password`, `GITHUB_TOKEN`, `db_pass`):
 * for structured data (spool-redaction.ts), where the value stands apart from its key and so
 * escapes the `password=` pattern above.
 */
const SECRET_KEY_NAME = new RegExp(String.raw`^${SECRET_KEY}$`, 'i');

export function isSecretKeyName(name: string): boolean {
  return name.length <= 64 && SECRET_KEY_NAME.test(name);
}

const PLACEHOLDER = /\[REDACTED:[A-Za-z0-9-]{1,40}\]/g;

/**
 * Ranges that lie inside a placeholder already there, dropped so that redacting twice changes
 * nothing: `token: [REDACTED:github-token]` would otherwise become `token: [REDACTED:secret]` on
 * a second pass. Text is redacted twice on purpose — the spool stores a hook payload redacted,
 * and ingestion redacts the reply again to find it in the transcript (handle-queued-call.ts),
 * where a changed placeholder would no longer match.
 */
function outsidePlaceholders(text: string, ranges: SecretRange[]): SecretRange[] {
  if (!text.includes('[REDACTED:')) return ranges;
  const starts: number[] = [];
  const ends: number[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    starts.push(match.index);
    ends.push(match.index + match[0].length);
  }
  // Placeholders are disjoint and in order: the one that could hold a range is the last one
  // starting at or before it (a binary search, so a text full of placeholders stays linear).
  return ranges.filter((range) => {
    let low = 0;
    let high = starts.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (starts[mid]! <= range.start) low = mid + 1;
      else high = mid - 1;
    }
    return high < 0 || range.end > ends[high]!;
  });
}

/** The patterns, for the test that checks each match holds a word its pattern `needs`. */
export const SECRET_PATTERNS: readonly Readonly<SecretPattern>[] = PATTERNS;

/**
 * Whether a text (`lower`: in lower case) may hold a match of the pattern. A pattern is compiled
 * when first run, and the hook without the daemon runs them once per process: searching a few
 * lines of dialog with all thirty cost 4–5 ms, almost all of it compiling and interpreting
 * patterns that could not match because their word is nowhere in the text. Sound because no
 * pattern carries the `u` flag: under `i` alone an ASCII letter matches only ASCII letters
 * (ECMA-262 Canonicalize), which lower-case to the word.
 */
function admits(pattern: SecretPattern, lower: string): boolean {
  return pattern.needs === undefined || pattern.needs.some((word) => lower.includes(word));
}

/** Where the secrets in a text are, by our own patterns. */
export function findSecretsSync(text: string): SecretRange[] {
  const urls = findUrlCredentials(text);
  const ranges: SecretRange[] = urls.map((span) => ({ ...span, kind: 'url-credentials' }));
  const lower = text.toLowerCase();
  for (const secretPattern of PATTERNS) {
    if (!admits(secretPattern, lower)) continue;
    const { kind, pattern, group, keep } = secretPattern;
    pattern.lastIndex = 0;
    let url = 0;
    for (const match of text.matchAll(pattern)) {
      const span = (typeof group === 'number' ? [group] : group).map((g) => match.indices?.[g]).find(Boolean);
      if (!span || span[1] <= span[0] || (keep && !keep(text, span[0], span[1]))) continue;
      if (kind === 'email') {
        // `mysql://root:p@ssw0rd@db.example.com` holds the "address" ssw0rd@db.example.com:
        // its start is already masked and the host must stay readable. Matches come in order,
        // so one cursor over the (ordered, disjoint) URL spans suffices.
        while (url < urls.length && urls[url]!.end <= span[0]) url++;
        if (url < urls.length && urls[url]!.start < span[1]) continue;
      }
      ranges.push({ start: span[0], end: span[1], kind });
    }
  }
  return outsidePlaceholders(text, ranges);
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
