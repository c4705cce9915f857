import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redact } from './redact.js';
import { redactSync } from './redact-sync.js';

/** Secrets built at run time, so this file itself never trips a secret scanner. */
const ghp = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
const pem = crypto.generateKeyPairSync('rsa', {
  modulusLength: 1024,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
}).privateKey;

describe('redactSync: every kind in seed 000 §機密與 PII', () => {
  const cases: [name: string, input: string, secret: string, placeholder: string][] = [
    ['credentials in a URL', 'clone https://alice:s3cretPw@git.example.com/repo.git', 'alice:s3cretPw', '[REDACTED:url-credentials]'],
    ['a bare token as the URL user', `https://${ghp}@github.com/x/y`, ghp, '[REDACTED:url-credentials]'],
    ['a 40-hex token', `token is ${'0123456789abcdef0123'.repeat(2)} ok`, '0123456789abcdef0123'.repeat(2), '[REDACTED:hex-token]'],
    ['ghp_ token', `我的 ${ghp} 給你`, ghp, '[REDACTED:github-token]'],
    ['gho_ token', `gho_${'Zz9'.repeat(10)}`, `gho_${'Zz9'.repeat(10)}`, '[REDACTED:github-token]'],
    ['ghs_ token', `ghs_${'Qq1'.repeat(10)}`, `ghs_${'Qq1'.repeat(10)}`, '[REDACTED:github-token]'],
    ['github_pat_ token', `github_pat_${'11AB_cd'.repeat(6)}`, `github_pat_${'11AB_cd'.repeat(6)}`, '[REDACTED:github-token]'],
    ['sk- key', `key sk-${'abc123XYZ'.repeat(4)} end`, `sk-${'abc123XYZ'.repeat(4)}`, '[REDACTED:api-key]'],
    ['sk-proj- key', `sk-proj-${'Ab12_-'.repeat(8)}`, `sk-proj-${'Ab12_-'.repeat(8)}`, '[REDACTED:api-key]'],
    ['sk-ant- key', `sk-ant-api03-${'xY9'.repeat(20)}`, `sk-ant-api03-${'xY9'.repeat(20)}`, '[REDACTED:api-key]'],
    ['token=', 'curl "https://api.example.com/?token=abc123def&x=1"', 'abc123def', '[REDACTED:secret]'],
    ['password=', 'DB_PASSWORD=hunter2 npm start', 'hunter2', '[REDACTED:secret]'],
    ['passwd:', 'passwd: correct-horse', 'correct-horse', '[REDACTED:secret]'],
    ['secret=', 'client_secret="s3cr3t-value"', 's3cr3t-value', '[REDACTED:secret]'],
    ['api_key=', 'api_key=AIzaSyExample123', 'AIzaSyExample123', '[REDACTED:secret]'],
    ['密碼：', '伺服器密碼：P@ssw0rd123，記得改', 'P@ssw0rd123', '[REDACTED:secret]'],
    ['Authorization: Bearer', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc', 'eyJhbGciOiJIUzI1NiJ9.e30.abc', '[REDACTED:authorization]'],
    ['Authorization: Basic', 'authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA==', '[REDACTED:authorization]'],
    ['e-mail', '寄到 someone.name+tag@example.com.tw 就好', 'someone.name+tag@example.com.tw', '[REDACTED:email]'],
    ['mobile 09xx-xxx-xxx', '手機 0912-345-678。', '0912-345-678', '[REDACTED:phone]'],
    ['mobile 09xxxxxxxx', '打0912345678給我', '0912345678', '[REDACTED:phone]'],
    ['mobile +886', '+886 912 345 678', '+886 912 345 678', '[REDACTED:phone]'],
    ['mobile +886-9xxxxxxxx', '(+886-912345678)', '+886-912345678', '[REDACTED:phone]'],
    ['national ID', '身分證字號A123456789', 'A123456789', '[REDACTED:national-id]'],
    ['national ID (female)', 'F231234567 是她的', 'F231234567', '[REDACTED:national-id]'],
    ['new-format resident ID', '居留證 A800000014', 'A800000014', '[REDACTED:national-id]'],
    ['AWS access key ID', 'aws AKIA2E0A8F3B244C9986 here', 'AKIA2E0A8F3B244C9986', '[REDACTED:aws-key]'],
    ['PEM private key', `key:\n${pem}done`, pem.trim(), '[REDACTED:private-key]'],
  ];
  for (const [name, input, secret, placeholder] of cases) {
    it(`masks ${name}`, () => {
      const out = redactSync(input);
      expect(out).not.toContain(secret);
      expect(out).toContain(placeholder);
    });
  }

  it('keeps the harmless context around a secret', () => {
    expect(redactSync('https://alice:pw123456@git.example.com/x')).toBe('https://[REDACTED:url-credentials]@git.example.com/x');
    expect(redactSync('GITHUB_TOKEN=abc123')).toBe('GITHUB_TOKEN=[REDACTED:secret]');
  });

  it('leaves ordinary text alone', () => {
    const plain = [
      '今天幫使用者修好 build，頭髮剪短了，心情很好。',
      '看 https://example.com/docs?page=2 與 ssh://git@github.com/org/repo.git',
      'max_tokens=4096, secretary: 王小姐, 電話分機 1234, 價格 0912 元',
      '{{anything}} 保持原樣',
      'commit a1b2c3d 很短',
    ].join('\n');
    expect(redactSync(plain)).toBe(plain);
  });

  it('masks a full git commit SHA in prose (40 hex; accepted by the seed)', () => {
    expect(redactSync('fixed in 3f786850e387550fdab836ed7e6dc881de23001b today')).toBe('fixed in [REDACTED:hex-token] today');
  });

  it('redacts 50 KB in a few milliseconds', () => {
    const text = `一般的中文內容，沒有秘密 hello world ${'x'.repeat(20)} 0912 `.repeat(1200) + ' a@b.co';
    expect(text.length).toBeGreaterThan(50_000);
    redactSync(text);
    const started = performance.now();
    const out = redactSync(text);
    expect(performance.now() - started).toBeLessThan(50);
    expect(out.endsWith('[REDACTED:email]')).toBe(true);
  });
});

describe('redact: ours plus secretlint recommended preset', () => {
  it('masks what only secretlint knows (Slack, npm, SendGrid, database URLs)', async () => {
    const slack = `xoxb-${'1234567890'}-${'1234567890123'}-${'AbCdEfGhIjKlMnOpQrStUvWx'}`;
    const npm = `npm_${'A1b2C3d4E5f6G7h8I9j0'}${'K1l2M3n4O5p6Q7r8'}`;
    const input = `slack ${slack}\nnpm ${npm}\nhook https://hooks.slack.com/services/T12345678/B12345678/${'abcdefghijklmnopqrstuvwx'}`;
    const out = await redact(input);
    expect(out).not.toContain(slack);
    expect(out).not.toContain(npm);
    expect(out).not.toContain('abcdefghijklmnopqrstuvwx');
    expect(out).toContain('[REDACTED:npm]');
  });

  it('masks an AWS secret access key whose secretlint range is misplaced', async () => {
    const value = 'Tq2kP0bXcV8nM4LzR7sW1yHuJ3eG5aDfK9oI6tQe';
    const out = await redact(`AWS_SECRET_ACCESS_KEY => "${value}"`);
    expect(out).not.toContain(value);
    expect(out).not.toContain(value.slice(20));
  });

  it('masks a PEM private key and a GCP service account', async () => {
    const gcp = JSON.stringify({ type: 'service_account', project_id: 'demo-123', private_key: pem, client_email: 'bot@demo-123.iam.gserviceaccount.com' });
    const out = await redact(`key\n${pem}\n${gcp}`);
    expect(out).not.toContain('MII');
    expect(out).not.toContain('bot@demo-123');
  });

  it('cannot be switched off by a secretlint-disable comment in the text', async () => {
    const npm = `npm_${'Z9y8X7w6V5u4T3s2R1q0'}${'P9o8N7m6L5k4J3i2'}`;
    const out = await redact(`<!-- secretlint-disable -->\n${npm}`);
    expect(out).not.toContain(npm);
  });

  it('prefers our placeholder where both find the same secret', async () => {
    expect(await redact('see https://bob:pw987654@db.example.com:5432/app')).toBe('see https://[REDACTED:url-credentials]@db.example.com:5432/app');
  });

  it('leaves ordinary text and {{templates}} untouched', async () => {
    const plain = '使用者喜歡簡潔的回覆 {{name}}，網址 https://example.com/a?b=c';
    expect(await redact(plain)).toBe(plain);
  });
});
