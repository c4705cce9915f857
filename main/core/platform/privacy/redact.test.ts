import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redact } from './redact.js';
import { isSecretKeyName, redactSync } from './redact-sync.js';

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
    [
      'Authorization: Bearer',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc',
      'eyJhbGciOiJIUzI1NiJ9.e30.abc',
      '[REDACTED:authorization]',
    ],
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

  // How fast (a few milliseconds for 50 KB) is a speed target: `npm run bench -- redact`.
  it('redacts 50 KB of prose, down to its last line', () => {
    const text = `一般的中文內容，沒有秘密 hello world ${'x'.repeat(20)} 0912 `.repeat(1200) + ' a@b.co';
    expect(text.length).toBeGreaterThan(50_000);
    const out = redactSync(text);
    expect(out.endsWith('[REDACTED:email]')).toBe(true);
    expect(out.slice(0, -'[REDACTED:email]'.length)).toBe(text.slice(0, -'a@b.co'.length));
  });
});

describe('redactSync: URL credentials whatever the password holds', () => {
  it.each([
    ['redis://:S3cretPass@cache:6379/0', 'redis://[REDACTED:url-credentials]@cache:6379/0'],
    ['mysql://root:p@ssw0rd@localhost/db', 'mysql://[REDACTED:url-credentials]@localhost/db'],
    ['postgresql://app:sup3r/secret@db:5432/app', 'postgresql://[REDACTED:url-credentials]@db:5432/app'],
    ['amqp://guest:gu#est@rabbit', 'amqp://[REDACTED:url-credentials]@rabbit'],
    ['postgres://admin:pa/ss#word@db.local', 'postgres://[REDACTED:url-credentials]@db.local'],
    ['mongodb://u:p?w@mongo.example.com:27017', 'mongodb://[REDACTED:url-credentials]@mongo.example.com:27017'],
    // The password's tail looks like an e-mail address; the host must still show.
    ['mysql://root:p@ssw0rd@db.example.com/app', 'mysql://[REDACTED:url-credentials]@db.example.com/app'],
    ['連到 postgres://u:pw@db.local，再寄給 a@b.com', '連到 postgres://[REDACTED:url-credentials]@db.local，再寄給 [REDACTED:email]'],
  ])('%s', (input, expected) => {
    expect(redactSync(input)).toBe(expected);
  });

  it.each([
    'http://localhost:4873/@scope/pkg',
    'https://en.wikipedia.org/wiki/File:Logo@2x.png',
    'https://medium.com/@user/post',
    'https://cdn.jsdelivr.net/npm/vue@3.2.0/dist/vue.js',
    'ssh://git@github.com:22/org/repo.git',
  ])('leaves an @ in a path alone: %s', (url) => {
    expect(redactSync(url)).toBe(url);
  });

  // Inputs that would make a careless pattern backtrack quadratically. Each is built at two sizes
  // (`n/2` repeats and 4n, the larger about 100–200 KB) and the work is compared: linear work grows
  // about 8×, quadratic 64×. (With sizes 1 and 4 the bound sat between 4× and 16×, and one CI run
  // on a loaded machine measured 9.7× for linear work.) The engine's steps cannot be counted from JavaScript (V8 traces them
  // only in debug builds), so the work is the CPU time this process spends, best of 5, the two
  // sizes interleaved: a ratio between two runs on the same machine, which neither the machine's
  // speed nor its load changes the way they change a stopwatch. Absolute times: the redact bench.
  it.each([
    ['many schemes', (n: number) => 'a://'.repeat(12_500 * n)],
    ['many user infos', (n: number) => `https://${'a:b@'.repeat(12_500 * n)}`],
    ['colons and one late @', (n: number) => `${'x://a:'.repeat(8_750 * n)}@h`],
    ['many URLs with long users', (n: number) => `x://${'b'.repeat(100)}@`.repeat(500 * n)],
    ['unclosed quotes', (n: number) => 'password="'.repeat(5_000 * n)],
    ['curl without -u', (n: number) => 'curl '.repeat(10_000 * n)],
    ['ssh options', (n: number) => `${'ssh -p 1 '.repeat(5_000 * n)}a@b.com`],
    ['domain labels', (n: number) => `a@${'b.'.repeat(25_000 * n)}`],
  ])('stays linear on up to 200 KB of %s', (_name, build) => {
    const small = build(0.5);
    const large = build(4);
    expect(large.length).toBeGreaterThanOrEqual(140_000);
    expect(
      workGrowth(
        () => redactSync(small),
        () => redactSync(large),
      ),
    ).toBeLessThan(LINEAR_GROWTH_BOUND);
  });
});

/** Eight times the input: linear work grows about 8×, quadratic 64×; the bound leaves room for a loaded machine. */
const LINEAR_GROWTH_BOUND = 24;

/** CPU time (ms) this process spent in `fn`. */
function cpuMs(fn: () => unknown): number {
  const before = process.cpuUsage();
  fn();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

/** How many times more work `large` took than `small`: best of 5 each, interleaved, after a warm-up. */
function workGrowth(small: () => unknown, large: () => unknown): number {
  small();
  large();
  let smallMs = Infinity;
  let largeMs = Infinity;
  for (let i = 0; i < 5; i++) {
    smallMs = Math.min(smallMs, cpuMs(small));
    largeMs = Math.min(largeMs, cpuMs(large));
  }
  // Below a tenth of a millisecond the clock's grain, not the work, would set the ratio.
  return largeMs / Math.max(smallMs, 0.1);
}

describe('redactSync: quoted values and the smaller PRIV-1 gaps', () => {
  const glpat = `glpat-${'Ab1_cD2-eF'.repeat(2)}`;
  const google = `AIza${'Sy'}${'B1c2D3e4F5'.repeat(3)}G6h`;
  it.each([
    ['password = "correct horse battery staple"', 'password = "[REDACTED:secret]"'],
    ['client_secret="abc def"', 'client_secret="[REDACTED:secret]"'],
    [`{"api_key": 'x y z', "user": "bob"}`, `{"api_key": '[REDACTED:secret]', "user": "bob"}`],
    ['密碼：「開門 芝麻」', '密碼：「[REDACTED:secret]」'],
    ['DB_PASS=hunter2 npm start', 'DB_PASS=[REDACTED:secret] npm start'],
    ['pass=hunter2', 'pass=[REDACTED:secret]'],
    ['curl -u admin:s3cret https://api.example.com', 'curl -u [REDACTED:credentials] https://api.example.com'],
    ['curl -s --user=admin:s3cret https://api.example.com', 'curl -s --user=[REDACTED:credentials] https://api.example.com'],
    ['身分證 a123456789', '身分證 [REDACTED:national-id]'],
    ['手機 0912.345.678', '手機 [REDACTED:phone]'],
    [`token ${glpat} here`, 'token [REDACTED:gitlab-token] here'],
    [`key ${google} here`, 'key [REDACTED:google-api-key] here'],
  ])('%s', (input, expected) => {
    expect(redactSync(input)).toBe(expected);
  });

  it.each(['PWD=/home/yui/project', 'bypass=true', 'compass: north', 'docker run -u 1000:1000 app', 'git push -u origin main'])(
    'leaves %s alone',
    (text) => {
      expect(redactSync(text)).toBe(text);
    },
  );
});

describe('redactSync: the formats secretlint knows, for the hook client that cannot load it', () => {
  // The spool is written by the hook client with redactSync alone (spool-redaction.ts): these
  // were masked only once capture stored the text, and sat in the spool in clear until then.
  const npm = `npm_${'A1b2C3d4E5f6G7h8I9j0'}${'K1l2M3n4O5p6Q7r8'}`;
  const webhook = `https://hooks.slack.com/services/T12345678/B12345678/${'abcdefghijklmnopqrstuvwx'}`;
  const linear = `lin_api_${'Ab12Cd34Ef56Gh78'.repeat(3)}`;
  const sendgrid = `SG.${'ngeVfQFYQlKU0ufo8x5d1A'}.${'TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr'}`;
  const shopify = `shpat_${'fed1ed4c2e2b1d0a'.repeat(2)}`;
  const onePassword = `ops_ey${'SmFuZUV4YW1wbGVUb2tlbg'.repeat(6)}fQ==`;
  const xapp = `xapp-1-A0123456789-${'1234567890123'}-${'abcdef0123456789'.repeat(2)}`;
  it.each([
    ['npm', npm, '[REDACTED:npm]'],
    ['Slack incoming webhook', webhook, '[REDACTED:slack]'],
    ['Linear', linear, '[REDACTED:linear]'],
    ['SendGrid', sendgrid, '[REDACTED:sendgrid]'],
    ['Shopify', shopify, '[REDACTED:shopify]'],
    ['1Password service account', onePassword, '[REDACTED:1password]'],
    ['Slack app-level token', xapp, '[REDACTED:slack-token]'],
  ])('masks a %s token', (_name, secret, placeholder) => {
    expect(redactSync(`用這個 ${secret} 試試`)).toBe(`用這個 ${placeholder} 試試`);
  });

  it.each(['SG.short.dot', 'npm_install', 'lin_api_key', 'see hooks.slack.com/services for the docs'])('leaves %s alone', (text) => {
    expect(redactSync(text)).toBe(text);
  });
});

describe('redactSync twice is redactSync once', () => {
  // A spooled reply is stored redacted and redacted again when ingestion looks it up in the
  // redacted transcript (handle-queued-call.ts): a placeholder renamed by the second pass
  // (`token: [REDACTED:github-token]` → `[REDACTED:secret]`) would no longer match.
  const aws = 'AKIA2E0A8F3B244C9986';
  it.each([
    `GITHUB_TOKEN=${ghp}`,
    `token: ${ghp}`,
    `password: "sk-ant-api03-${'x'.repeat(40)}"`,
    `api_key=${aws}`,
    `{"apiKey": "${ghp}", "password": "hunter2"}`,
    `Authorization: Bearer ${ghp}`,
    `密碼：${ghp}，帳號 yui@example.com`,
    'https://alice:pw123456@git.example.com/x 與 mysql://root:p@ssw0rd@db.example.com',
    `curl -u bob:${ghp} https://api.example.com`,
    `key:\n${pem}done`,
  ])('%s', (input) => {
    const once = redactSync(input);
    expect(once).not.toBe(input);
    expect(redactSync(once)).toBe(once);
  });

  it('still masks a secret written next to a placeholder', () => {
    expect(redactSync(`[REDACTED:secret] ${ghp}`)).toBe('[REDACTED:secret] [REDACTED:github-token]');
  });
});

describe('isSecretKeyName', () => {
  it.each(['password', 'GITHUB_TOKEN', 'db_pass', 'apiKey', 'api-key', 'client_secret', 'AWS_SECRET_ACCESS_KEY', 'passphrase'])(
    '%s names a secret',
    (name) => {
      expect(isSecretKeyName(name)).toBe(true);
    },
  );
  it.each([
    'max_tokens',
    'input_tokens',
    'token_count',
    'bypass',
    'secretary',
    'session_id',
    'prompt',
    'last_assistant_message',
    'stop_hook_active',
  ])('%s does not', (name) => {
    expect(isSecretKeyName(name)).toBe(false);
  });
});

describe('redactSync: developer addresses are not e-mail', () => {
  it.each([
    'git clone git@github.com:org/repo.git',
    'git remote add origin git@gitlab.example.com:group/repo.git',
    'scp dump.sql deploy@prod.example.com:/tmp/',
    'ssh deploy@prod.example.com',
    'ssh -p 2222 deploy@prod.example.com',
    '![logo](assets/logo@2x.png) 與 icon@3x.png',
  ])('leaves %s alone', (text) => {
    expect(redactSync(text)).toBe(text);
  });

  it.each([
    ['yui@example.com', '[REDACTED:email]'],
    ['寫信給 a.b+c@mail.co.tw：謝謝', '寫信給 [REDACTED:email]：謝謝'],
    ['contact: yui@example.com.', 'contact: [REDACTED:email].'],
  ])('still masks the e-mail in %s', (input, expected) => {
    expect(redactSync(input)).toBe(expected);
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
    const gcp = JSON.stringify({
      type: 'service_account',
      project_id: 'demo-123',
      private_key: pem,
      client_email: 'bot@demo-123.iam.gserviceaccount.com',
    });
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
    expect(await redact('see https://bob:pw987654@db.example.com:5432/app')).toBe(
      'see https://[REDACTED:url-credentials]@db.example.com:5432/app',
    );
  });

  it('keeps the host of a URL whose password holds @ and the developer addresses as written', async () => {
    expect(await redact('mysql://root:p@ssw0rd@localhost/db')).toBe('mysql://[REDACTED:url-credentials]@localhost/db');
    expect(await redact('git clone git@github.com:org/repo.git 然後 ssh deploy@prod.example.com')).toBe(
      'git clone git@github.com:org/repo.git 然後 ssh deploy@prod.example.com',
    );
  });

  it('leaves ordinary text and {{templates}} untouched', async () => {
    const plain = '使用者喜歡簡潔的回覆 {{name}}，網址 https://example.com/a?b=c';
    expect(await redact(plain)).toBe(plain);
  });
});

/**
 * Issue 14: the kinds an attack pass found unmasked in every channel. Each case names its kind,
 * and the same words without a secret are left alone (ordinary CJK prose and code must not lose
 * words to a placeholder).
 */
describe('redact: JWTs, credential words in Chinese and English, bare AWS secret keys (issue 14)', () => {
  const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const jwt = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'u-1', name: '阿明', iat: 1767225600 })}.${crypto.randomBytes(32).toString('base64url')}`;
  const unsigned = `${b64url({ alg: 'none' })}.${b64url({ sub: 'admin' })}.`;
  // 40 base64 characters with both cases and digits, as AWS issues them (built, never a real one).
  const awsSecret = `${'Tq2kP0bXcV8nM4Lz'}${'R7sW1yHuJ3eG5aDf'}${'K9/I6t+e'}`;
  const awsId = `AKIA${'2E0A8F3B244C9986'}`;

  it.each([
    ['jwt', `登入後拿到 ${jwt}，放在 header`, jwt, '登入後拿到 [REDACTED:jwt]，放在 header'],
    ['jwt (alg none, empty signature)', `the cookie ${unsigned} end`, unsigned, 'the cookie [REDACTED:jwt] end'],
    ['password: 我的密碼是…', '我的密碼是hunter2abc，記得', 'hunter2abc', '我的密碼是[REDACTED:password]，記得'],
    ['password: 密碼為 (with spaces)', '公司 VPN 的密碼為 Xy7!qa90 喔', 'Xy7!qa90', '公司 VPN 的密碼為 [REDACTED:password] 喔'],
    ['password: 密码是 (Simplified)', '我的密码是Abc12345', 'Abc12345', '我的密码是[REDACTED:password]'],
    ['password: 口令 是', '口令 是 open-sesame-42', 'open-sesame-42', '口令 是 [REDACTED:password]'],
    ['password: 通行碼為', '門禁通行碼為 8421#xyz', '8421#xyz', '門禁通行碼為 [REDACTED:password]'],
    ['password: quoted 口令為「…」', '口令為「芝麻開門」', '芝麻開門', '口令為「[REDACTED:password]」'],
    ['password: password 是', 'wifi password 是 hunter22', 'hunter22', 'wifi password 是 [REDACTED:password]'],
    ['password: token 為', 'token 為 tk-91a8b7c6', 'tk-91a8b7c6', 'token 為 [REDACTED:password]'],
    ['password: 密碼是 letters only', '我的密碼是 correcthorse 喔', 'correcthorse', '我的密碼是 [REDACTED:password] 喔'],
    ['password: secret 是 mixed case', 'secret 是 correctHorseBattery', 'correctHorseBattery', 'secret 是 [REDACTED:password]'],
    ['password: pwd:', 'pwd: hunter2x', 'hunter2x', 'pwd: [REDACTED:password]'],
    ['secret: 密碼： with full-width spaces', '密碼　：　hunter2abc', 'hunter2abc', '密碼　：　[REDACTED:secret]'],
    ['secret: 密碼＝ (full-width equals)', '密碼＝abcd1234', 'abcd1234', '密碼＝[REDACTED:secret]'],
    ['aws-secret-key next to its key id', `${awsId} ${awsSecret}`, awsSecret, '[REDACTED:aws-key] [REDACTED:aws-secret-key]'],
    ['aws-secret-key next to the word secret', `secret: ${awsSecret}`, awsSecret, 'secret: [REDACTED:secret]'],
    [
      'aws-secret-key after 金鑰 in prose',
      `AWS 金鑰是這個 ${awsSecret} 別外流`,
      awsSecret,
      `AWS 金鑰是這個 [REDACTED:aws-secret-key] 別外流`,
    ],
  ])('%s', async (_kind, input, secret, expected) => {
    for (const out of [redactSync(input), await redact(input)]) {
      expect(out).not.toContain(secret);
      expect(out).toBe(expected);
    }
  });

  it.each([
    'token 數量 4096，上限 8192',
    'password 欄位不能空白',
    '密碼是必填欄位',
    '密碼學是一門學問',
    'token 是什麼？',
    'token 是 optional 的，password 是 required',
    'secret 為 Bearer 開頭的字串',
    '口令是什麼意思',
    'secretary 是 王小姐',
    'max_tokens 是 4096',
    'PWD=/home/yui/project',
    'pwd 是 /tmp/work',
    'const passwordField = form.password;',
    'if (token === undefined) return;',
    "const ok = password == confirm && secret != '';",
    // 40 characters of one case, or a path: not a random key, even next to "secret".
    'secret store at /srv/app/config/production/credentials.yml',
    'secrets manager: abcdefghijklmnopqrstuvwxyzabcdefghijklmn',
    'header eyJhbGciOiJIUzI1NiJ9 alone is no token',
  ])('leaves %s alone', async (text) => {
    expect(redactSync(text)).toBe(text);
    expect(await redact(text)).toBe(text);
  });

  it('does not call a git SHA an AWS secret key, even next to the word secret (it stays a 40-hex token, PRIV-1)', () => {
    const sha = '3f786850e387550fdab836ed7e6dc881de23001b';
    expect(redactSync(`secret fix in ${sha}`)).toBe('secret fix in [REDACTED:hex-token]');
  });

  it('leaves a 40-character word next to nothing secret alone', () => {
    const text = `build ${awsSecret.replace(/[/+]/g, 'x')}-artifact`;
    expect(redactSync(text)).toBe(text);
    expect(redactSync(`plain ${awsSecret} here`)).toBe(`plain ${awsSecret} here`);
  });

  it.each([
    ['many eyJ', (n: number) => 'eyJ'.repeat(50_000 * n)],
    ['eyJ headers without a payload', (n: number) => `eyJ${'a'.repeat(20)}.`.repeat(6_000 * n)],
    ['credential words without a value', (n: number) => '密碼是'.repeat(50_000 * n)],
    ['a copula and a long ASCII run', (n: number) => `口令是${'a'.repeat(300)}`.repeat(500 * n)],
    ['40-character runs', (n: number) => `${'Ab1'.repeat(14)} `.repeat(3_000 * n)],
  ])('stays linear on up to 200 KB of %s', (_name, build) => {
    const small = build(0.5);
    const large = build(4);
    expect(large.length).toBeGreaterThanOrEqual(140_000);
    expect(
      workGrowth(
        () => redactSync(small),
        () => redactSync(large),
      ),
    ).toBeLessThan(LINEAR_GROWTH_BOUND);
  });
});
