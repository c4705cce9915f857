import { describe, expect, it } from 'vitest';
import { findSecretsSync, SECRET_PATTERNS } from './redact-sync.js';

/**
 * The words each pattern `needs` (redact-sync.ts) only skip work: a text a pattern matches must
 * always hold one of them, or a secret would go through unmasked. Checked on a text for every
 * pattern, in its own case, upper case and lower case, and inside CJK prose.
 */

// Secrets built at run time, so this file itself never trips a secret scanner.
const b64 = 'Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv';
const samples = [
  `key:\n-----BEGIN RSA PRIVATE KEY-----\n${b64}\n-----END RSA PRIVATE KEY-----`,
  `clone https://ghp_${b64}@github.com/x/y`,
  'curl -u admin:s3cret https://api.example.com',
  'curl --user=admin:s3cret https://api.example.com',
  'Authorization: Basic dXNlcjpwYXNzd29yZA==',
  `fetch with Bearer ${b64}`,
  `我的 ghp_${b64} 給你`,
  `github_pat_${'11AB_cd'.repeat(6)}`,
  `token glpat-${'Ab1_cD2-eF'.repeat(2)} here`,
  `AIza${'Sy0123456789abcdefghijklmnopqrstuvw'}`,
  `key sk-proj-${b64} end`,
  `rk_live_${b64}`,
  `sk_test_${b64}`,
  'aws AKIA2E0A8F3B244C9986 here',
  'ASIA2E0A8F3B244C9986',
  'A3TX2E0A8F3B244C9986',
  `slack xoxb-1234567890-1234567890123-${b64}`,
  `xapp-1-A0123456789-${b64}`,
  'hook https://hooks.slack.com/services/T12345678/B12345678/abcdefghijklmnopqrstuvwx',
  `npm_${'A1b2C3d4E5f6G7h8I9j0'}${'K1l2M3n4O5p6Q7r8'}`,
  `lin_api_${'Ab12Cd34Ef56Gh78'.repeat(3)}`,
  `SG.${'ngeVfQFYQlKU0ufo8x5d1A'}.${'TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr'}`,
  `shpat_${'fed1ed4c2e2b1d0a'.repeat(2)}`,
  `ops_ey${'SmFuZUV4YW1wbGVUb2tlbg'.repeat(6)}fQ==`,
  'GITHUB_TOKEN=abc123',
  'DB_PASSWORD=hunter2 npm start',
  'db_pass: hunter2',
  'client_secret="s3cr3t-value"',
  'api_key=AIzaSyExample123',
  'ACCESS-KEY: 9f8e7d6c5b',
  'passphrase＝「芝麻開門」',
  '伺服器密碼：P@ssw0rd123，記得改',
  '令牌=abcd1234',
  '我的密碼是 hunter2、口令為「芝麻開門」',
  '金鑰就是 tk-91a8x',
  'password 是 abc123',
  'TOKEN 為 tk-91a8',
  'API-KEY 是 Xy7!qa90z',
  'pwd 是 correctHorse1',
  'pwd: hunter2x',
  'PWD=hunter2x',
  `Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.${b64}`,
  `secret ${'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bD1fH3jL5nP7r'}`,
  `AKIA2E0A8F3B244C9986 ${'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bD1fH3jL5nP7r'}`,
  `金鑰 ${'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bD1fH3jL5nP7r'}`,
  '寄到 someone.name+tag@example.com.tw 就好',
  '手機 0912-345-678。',
  '身分證字號A123456789',
  'fixed in 3f786850e387550fdab836ed7e6dc881de23001b today',
];

/** Each sample as written, in upper and in lower case, and inside prose on both sides. */
const texts = samples.flatMap((sample) =>
  [sample, sample.toUpperCase(), sample.toLowerCase()].map((text) => `今天整理部署腳本。\n${text}\n順便看一下設定。`),
);

/** What the pattern finds in the text, run as findSecretsSync runs it but without its gate. */
function ungatedMatches(pattern: (typeof SECRET_PATTERNS)[number], text: string): string[] {
  const found: string[] = [];
  pattern.pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern.pattern)) {
    const groups = typeof pattern.group === 'number' ? [pattern.group] : pattern.group;
    const span = groups.map((g) => match.indices?.[g]).find(Boolean);
    if (span && span[1] > span[0] && (!pattern.keep || pattern.keep(text, span[0], span[1]))) found.push(match[0]);
  }
  return found;
}

describe('redactSync: the words a pattern needs', () => {
  it('are in lower case, and no pattern lower-casing could fool carries the u flag', () => {
    for (const { kind, pattern, needs } of SECRET_PATTERNS) {
      for (const word of needs ?? []) expect(word, kind).toBe(word.toLowerCase());
      expect(pattern.flags, kind).not.toContain('u');
    }
  });

  it('are in every text a pattern matches, so the gate never skips a secret', () => {
    const unmatched = new Set(SECRET_PATTERNS);
    for (const pattern of SECRET_PATTERNS) {
      for (const text of texts) {
        if (ungatedMatches(pattern, text).length === 0) continue;
        unmatched.delete(pattern);
        if (pattern.needs)
          expect(
            pattern.needs.some((word) => text.toLowerCase().includes(word)),
            `${pattern.kind}: ${text}`,
          ).toBe(true);
      }
    }
    // Not vacuous: every pattern matched something above.
    expect([...unmatched].map((pattern) => `${pattern.kind} ${pattern.pattern.source.slice(0, 40)}`)).toEqual([]);
  });

  it('leave what is found unchanged', () => {
    for (const text of texts) {
      const gated = findSecretsSync(text).map((range) => `${range.kind}@${range.start}-${range.end}`);
      const ungated = SECRET_PATTERNS.flatMap((pattern) => ungatedMatches(pattern, text).map(() => pattern.kind));
      // Every kind the ungated patterns find is still found (url-credentials also come from url-credentials.ts).
      for (const kind of ungated)
        expect(
          gated.some((range) => range.startsWith(`${kind}@`)),
          `${kind}: ${text}`,
        ).toBe(true);
    }
  });
});
