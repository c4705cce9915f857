import os from 'node:os';
import { parseArgs } from 'node:util';
import { redactSync } from '../main/core/platform/privacy/redact-sync.js';
import { percentile, round, timeMs } from './bench-stats.js';
import { writeBenchResults } from './bench-results.js';

/**
 * PRIV-1 on the hot path: redactSync runs on every text a hook injects, so it must stay cheap
 * (50 KB prose ≤ 50 ms; 200 KB of backtracking bait ≤ 500 ms).
 * Design notes: docs/design-notes.md, "bench/redact-bench.ts".
 */
const PROSE_TARGET_MS = 50;
const PATHOLOGICAL_TARGET_MS = 500;

const CASES: Array<{ name: string; text: () => string; targetMs: number }> = [
  {
    name: '50 KB of prose',
    text: () => `一般的中文內容，沒有秘密 hello world ${'x'.repeat(20)} 0912 `.repeat(1200) + ' a@b.co',
    targetMs: PROSE_TARGET_MS,
  },
  // Issue 14's patterns on what users write: Traditional Chinese full of the credential words
  // (密碼、口令、token) mostly without a value, and now and then with one, a JWT or an AWS key.
  { name: '50 KB of CJK prose with credential words', text: cjkProse, targetMs: PROSE_TARGET_MS },
  ...(
    [
      ['many schemes', () => 'a://'.repeat(50_000)],
      ['many user infos', () => `https://${'a:b@'.repeat(50_000)}`],
      ['colons and one late @', () => `${'x://a:'.repeat(35_000)}@h`],
      ['many URLs with long users', () => `x://${'b'.repeat(100)}@`.repeat(2000)],
      ['unclosed quotes', () => 'password="'.repeat(20_000)],
      ['curl without -u', () => 'curl '.repeat(40_000)],
      ['ssh options', () => `${'ssh -p 1 '.repeat(20_000)}a@b.com`],
      ['domain labels', () => `a@${'b.'.repeat(100_000)}`],
      ['credential words without a value', () => '密碼是'.repeat(66_000)],
      ['a copula and a long ASCII run', () => `口令是${'a'.repeat(300)}`.repeat(660)],
      ['many eyJ', () => 'eyJ'.repeat(66_000)],
      ['40-character runs', () => `${'Ab1'.repeat(14)} `.repeat(4_700)],
    ] as const
  ).map(([name, text]) => ({ name: `200 KB: ${name}`, text, targetMs: PATHOLOGICAL_TARGET_MS })),
];

function cjkProse(): string {
  const lines = [
    '今天把登入流程的 token 數量上限調到 4096，password 欄位改成必填，密碼是必填欄位這點要寫進文件。',
    '口令是什麼意思？通行碼要怎麼設定？我把密碼學的筆記整理好了，secret 管理改用 vault。',
    '部署腳本裡 if (token === undefined) return; 這行先留著，commit 3f786850e387550fdab836ed7e6dc881de23001b 已合併。',
    '測試帳號的密碼是 Xy7!qa90，登入後拿到 eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ 這串。',
    'IAM 使用者 AKIA2E0A8F3B244C9986 配的是 Tq2kP0bXcV8nM4LzR7sW1yHuJ3eG5aDfK9/I6t+e，用完要撤銷。',
  ];
  let text = '';
  for (let i = 0; text.length < 50_000; i++) text += `${lines[i % 5 < 3 ? i % 3 : 3 + (i % 2)]}\n`;
  return text;
}

export async function runRedactBench(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { runs: { type: 'string', default: '20' } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number (e.g. --runs 20)');
  const results = CASES.map(({ name, text, targetMs }) => {
    const input = text();
    redactSync(input);
    const samples = Array.from({ length: runs }, () => timeMs(() => redactSync(input)));
    const medianMs = percentile(samples, 50);
    return {
      name,
      chars: input.length,
      medianMs: round(medianMs, 2),
      p95Ms: round(percentile(samples, 95), 2),
      targetMs,
      pass: medianMs <= targetMs,
    };
  });
  const width = Math.max(...results.map((r) => r.name.length));
  process.stdout.write(`\nredact bench: redactSync, ${runs} runs each, median (node ${process.version}, ${os.cpus().length} CPUs)\n`);
  for (const r of results)
    process.stdout.write(
      `${r.pass ? 'PASS' : 'FAIL'}  ${r.name.padEnd(width)}  ${String(r.medianMs).padStart(8)} ms  p95 ${String(r.p95Ms).padStart(8)} ms  (≤ ${r.targetMs} ms)\n`,
    );
  const file = writeBenchResults('redact', { runs, results });
  process.stdout.write(`results: ${file}\n`);
  if (results.some((r) => !r.pass)) process.exitCode = 1;
}
