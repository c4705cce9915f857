import crypto from 'node:crypto';

/**
 * One sample of every secret kind the redactor knows (issue 14): our own patterns and the kinds
 * only secretlint's recommended preset knows.
 * Design notes: docs/design-notes.md, "test/hostile/secret-kinds.ts".
 */
export interface SecretKind {
  /** Row marker, K01…, unique in the text. */
  marker: string;
  /** The rule that must mask it: a redact-sync kind, or `secretlint:<rule>`. */
  kind: string;
  /** The line as a user would type it, marker first. */
  line: string;
  /** Strings that must not be found anywhere in the home afterwards (see needlesOf). */
  needles: string[];
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const B64 = `${ALNUM}+/`;

function pick(alphabet: string, length: number): string {
  const bytes = crypto.randomBytes(length);
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}

/** Random, but with an upper- and a lower-case letter and a digit (what key formats and the AWS rule expect). */
function mixed(alphabet: string, length: number): string {
  for (;;) {
    const value = pick(alphabet, length);
    if (/[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9]/.test(value)) return value;
  }
}

const digits = (length: number) => pick('0123456789', length);
const hex = (length: number) =>
  crypto
    .randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);

/**
 * What must never be found in clear: the secret itself, and the head and tail of each long
 * alphanumeric run in it — so a secret cut into pieces (a tag cut out of a JWT, a PEM key split
 * into lines) is still found. Short secrets (passwords) are looked for whole.
 */
function needlesOf(secret: string): string[] {
  const needles = new Set([secret]);
  for (const run of secret.match(/[A-Za-z0-9]{16,}/g) ?? []) {
    needles.add(run.slice(0, 16));
    needles.add(run.slice(-16));
  }
  return [...needles];
}

export function secretKinds(): SecretKind[] {
  const pem = crypto
    .generateKeyPairSync('rsa', {
      modulusLength: 1024,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    })
    .privateKey.trim();
  const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const jwt = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: `u-${digits(6)}`, role: 'admin', iat: Number(digits(9)) })}.${crypto.randomBytes(32).toString('base64url')}`;
  const password = () => `${mixed(ALNUM, 10)}#${digits(2)}`;
  const [pw1, pw2, pw3, pw4, pw5, pw6] = [password(), password(), password(), password(), password(), password()];
  const email = `${pick('abcdefghijklmnopqrstuvwxyz', 10)}.${pick('abcdefghijklmnopqrstuvwxyz', 6)}@example-mail.com.tw`;
  const phone = `09${digits(2)}-${digits(3)}-${digits(3)}`;
  const nationalId = `${pick('ABCDEFGHJKLMNPQRSTUVXYWZIO', 1)}${pick('12', 1)}${digits(8)}`;
  const rows: Array<[kind: string, words: string, secret: string, after?: string]> = [
    ['private-key', '部署用的私鑰如下\n', pem],
    ['url-credentials', '倉庫網址 https://alice:', pw1, '@git.example.com/shop.git'],
    ['credentials', '試打 API：curl -u admin:', pw2, ' https://api.example.com/v1'],
    ['authorization', '請求標頭 Authorization: Token ', mixed(ALNUM, 32)],
    ['github-token', '這是 GitHub 的 ', `ghp_${mixed(ALNUM, 36)}`],
    ['gitlab-token', '這是 GitLab 的 ', `glpat-${mixed(ALNUM, 20)}`],
    ['google-api-key', '地圖服務用 ', `AIza${mixed(`${ALNUM}_-`, 35)}`],
    ['api-key', 'OpenAI 帳號用 ', `sk-proj-${mixed(ALNUM, 40)}`],
    ['aws-key', 'IAM 使用者的 ', `AKIA${pick(UPPER_DIGITS, 16)}`],
    ['aws-secret-key', `IAM 使用者 AKIA${pick(UPPER_DIGITS, 16)} 配的是 `, mixed(B64, 40)],
    ['slack-token', 'Slack 機器人用 ', `xoxb-${digits(12)}-${digits(13)}-${mixed(ALNUM, 24)}`],
    ['secret', '啟動時帶 DB_PASSWORD=', pw3, ' npm start'],
    ['secret', '伺服器密碼：', pw4, '，記得改'],
    ['password', '我的密碼是', pw5, '，別外流'],
    ['password', '門禁的通行碼為 ', pw6],
    ['jwt', '登入後拿到的是 ', jwt, ' 這串'],
    ['email', '寄到 ', email, ' 就好'],
    ['phone', '手機是 ', phone, ' 晚上打'],
    ['national-id', '身分證字號 ', nationalId],
    ['hex-token', '部署用的 ', hex(40)],
    ['secretlint:npm', 'npm 發佈用 ', `npm_${mixed(ALNUM, 36)}`],
    ['secretlint:sendgrid', '寄信服務 ', `SG.${mixed(ALNUM, 22)}.${mixed(ALNUM, 43)}`],
    ['secretlint:shopify', '商店後台 ', `shpat_${hex(32)}`],
    ['secretlint:linear', 'Linear 整合 ', `lin_api_${mixed(ALNUM, 40)}`],
    [
      'secretlint:slack (webhook)',
      '通知送到 https://hooks.slack.com/services/',
      `T${pick(UPPER_DIGITS, 8)}/B${pick(UPPER_DIGITS, 8)}/${mixed(ALNUM, 24)}`,
    ],
    ['secretlint:database-connection-string', '資料庫連線 postgres://app:', pw1.split('').reverse().join(''), '@db.internal:5432/shop'],
  ];
  return rows.map(([kind, words, secret, after = ''], i) => {
    const marker = `K${String(i + 1).padStart(2, '0')}`;
    return { marker, kind, line: `${marker} ${words}${secret}${after}`, needles: needlesOf(secret) };
  });
}
