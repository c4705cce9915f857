import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readRecentDialog, readRecentDialogWithFallback } from './recent-dialog.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../test/fixtures/transcripts');
const fixture = (name: string) => path.join(FIXTURES, name);
const WIDE = { maxTurns: 50, maxChars: 100_000 };
const texts = (turns: { role: string; text: string }[]) => turns.map((t) => `${t.role}: ${t.text}`);

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-transcript-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('Claude Code transcripts', () => {
  it('keeps only user and assistant text, merged per turn and redacted', () => {
    const turns = readRecentDialog('claude', fixture('claude-session.jsonl'), WIDE);
    expect(texts(turns)).toEqual([
      'user: 幫我看一下為什麼 login 一直回 401？我的測試帳號是 [REDACTED:email]',
      'assistant: 我先看一下 auth middleware。\n\n問題在 `clockTolerance: 0`：伺服器時鐘比簽發端慢兩秒，剛簽的 token 會被當成還沒生效。\n\n建議改成 `clockTolerance: 5`。',
      'user: 改完還是這個畫面',
      'assistant: 截圖裡的錯誤是 `jwt expired`，',
      'user: 那 token 過期時間設多久比較好？',
      'assistant: 一般 access token 設 15 分鐘，\n\n已改成 15 分鐘，refresh token 維持 7 天。',
    ]);
    expect(turns[0]!.timestamp).toMatch(/^2026-03-14T09:/);
  });

  it('leaves out hook-injected, meta, sidechain, compaction and synthetic text', () => {
    const all = readRecentDialog('claude', fixture('claude-session.jsonl'), WIDE)
      .map((t) => t.text)
      .join('\n');
    for (const absent of [
      'kioku',
      'Caveat',
      '/clear',
      'being continued',
      'jwt.verify',
      'Found 2 other',
      'No response requested',
      'API Error',
      'interrupted',
      'The user opened',
      'verify(token',
      '還在寫',
      'Let me read',
    ]) {
      expect(all).not.toContain(absent);
    }
  });

  it('drops the oldest whole pairs to fit the budget', () => {
    const turns = readRecentDialog('claude', fixture('claude-session.jsonl'), { maxTurns: 3, maxChars: 10_000 });
    expect(texts(turns)).toEqual([
      'user: 那 token 過期時間設多久比較好？',
      'assistant: 一般 access token 設 15 分鐘，\n\n已改成 15 分鐘，refresh token 維持 7 天。',
    ]);
    const byChars = readRecentDialog('claude', fixture('claude-session.jsonl'), { maxTurns: 50, maxChars: 110 });
    expect(byChars.map((t) => t.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(byChars.reduce((sum, t) => sum + t.text.length, 0)).toBeLessThanOrEqual(110);
  });

  it('turns a zero budget, a missing path and a missing file into no dialog', () => {
    expect(readRecentDialog('claude', fixture('claude-session.jsonl'), { maxTurns: 0, maxChars: 4000 })).toEqual([]);
    expect(readRecentDialog('claude', undefined, WIDE)).toEqual([]);
    expect(readRecentDialog('claude', path.join(dir, 'nope.jsonl'), WIDE)).toEqual([]);
    expect(readRecentDialogWithFallback('claude', path.join(dir, 'nope.jsonl'), WIDE)).toEqual([]);
  });
});

describe('Codex rollouts', () => {
  it('keeps user and assistant messages, not scaffolding, tools, reasoning, events or summaries', () => {
    const turns = readRecentDialog('codex', fixture('codex-rollout.jsonl'), WIDE);
    expect(texts(turns)).toEqual([
      'user: 這個 repo 的測試要怎麼跑？',
      'assistant: 用 `pnpm test` 跑，底層是 `vitest run`。',
      'user: 幫我把 auth.test.ts 裡 skip 掉的測試打開，token 是 [REDACTED:github-token] 不要記',
      'assistant: 好，我先找出被 skip 的測試。\n\n打開了 `rejects expired token`，\n\n`pnpm test` 全部通過。',
    ]);
  });
});

describe('Gemini CLI transcripts', () => {
  it('reads the pretty-printed session document from its end', () => {
    expect(texts(readRecentDialog('gemini', fixture('gemini-session.json'), WIDE))).toEqual([
      'user: shop-api 的 rate limit 現在是多少？',
      'assistant: 每個 IP 每分鐘 100 次（`src/config.ts`）。',
      'user: 改成 300，順便看 @src/limiter.ts',
      'assistant: 已改成每分鐘 300 次。',
    ]);
  });

  it('reads compact JSON and one-message-per-line files too', () => {
    const doc = JSON.parse(fs.readFileSync(fixture('gemini-session.json'), 'utf8')) as { messages: unknown[] };
    const compact = path.join(dir, 'session-compact.json');
    fs.writeFileSync(compact, JSON.stringify(doc));
    const lines = path.join(dir, 'session-lines.jsonl');
    fs.writeFileSync(lines, doc.messages.map((m) => JSON.stringify(m)).join('\n'));
    const expected = texts(readRecentDialog('gemini', fixture('gemini-session.json'), WIDE));
    expect(texts(readRecentDialog('gemini', compact, WIDE))).toEqual(expected);
    expect(texts(readRecentDialog('gemini', lines, WIDE))).toEqual(expected);
  });

  it("issue 13: the hooks' <hook_context> in a user message is not what the user said", () => {
    // As Gemini CLI 0.61 records it: SessionStart's context before the prompt in the first user
    // message (as one text or as parts), BeforeAgent's after it; a SessionStart context added to
    // the history on its own is a user message with nothing else.
    const rules = '## 共用行為\n- 角色設定不是編造事實的理由。';
    const at = (s: number) => `2026-03-14T09:00:0${s}.000Z`;
    const doc = {
      sessionId: 's',
      messages: [
        { id: '1', timestamp: at(1), type: 'user', content: [{ text: `<hook_context>${rules}</hook_context>` }] },
        { id: '2', timestamp: at(2), type: 'user', content: `<hook_context>${rules}</hook_context>\n記住：發版前先跑 smoke test` },
        { id: '3', timestamp: at(3), type: 'gemini', content: '好，之後發版前都先跑 smoke test。' },
        {
          id: '4',
          timestamp: at(4),
          type: 'user',
          content: [{ text: '那 staging 呢？' }, { text: '<hook_context>（提醒）</hook_context>' }],
        },
        { id: '5', timestamp: at(5), type: 'gemini', content: 'staging 也一樣。' },
      ],
    };
    const file = path.join(dir, 'session-hook.json');
    fs.writeFileSync(file, JSON.stringify(doc, null, 2));
    expect(texts(readRecentDialog('gemini', file, WIDE))).toEqual([
      'user: 記住：發版前先跑 smoke test',
      'assistant: 好，之後發版前都先跑 smoke test。',
      'user: 那 staging 呢？',
      'assistant: staging 也一樣。',
    ]);
  });
});

describe('fallback to the previous transcript', () => {
  function place(name: string, source: string, mtime: Date): string {
    const file = path.join(dir, name);
    fs.copyFileSync(fixture(source), file);
    fs.utimesSync(file, mtime, mtime);
    return file;
  }

  it('uses the most recently modified other transcript when this one has fewer than 2 turns', () => {
    place('older.jsonl', 'claude-session.jsonl', new Date('2026-03-01T00:00:00Z'));
    place('previous.jsonl', 'claude-session.jsonl', new Date('2026-03-10T00:00:00Z'));
    place('agent-1234.jsonl', 'claude-session.jsonl', new Date('2026-03-12T00:00:00Z')); // a sub-agent's file
    const current = path.join(dir, 'current.jsonl');
    fs.writeFileSync(current, `${JSON.stringify({ type: 'user', message: { role: 'user', content: '早安' } })}\n`);
    const turns = readRecentDialogWithFallback('claude', current, { maxTurns: 3, maxChars: 4000 });
    expect(texts(turns)).toEqual([
      'user: 那 token 過期時間設多久比較好？',
      'assistant: 一般 access token 設 15 分鐘，\n\n已改成 15 分鐘，refresh token 維持 7 天。',
      'user: 早安',
    ]);
    // readRecentDialog alone never looks beside the file.
    expect(texts(readRecentDialog('claude', current, WIDE))).toEqual(['user: 早安']);
  });

  it('keeps to the current transcript when it already has 2 turns', () => {
    place('previous.jsonl', 'claude-session.jsonl', new Date('2026-03-10T00:00:00Z'));
    const current = place('current.jsonl', 'claude-session.jsonl', new Date('2026-03-11T00:00:00Z'));
    expect(readRecentDialogWithFallback('claude', current, WIDE)).toHaveLength(6);
  });

  it('looks into earlier Codex day folders when the day has no other rollout', () => {
    const day = (d: string) => path.join(dir, 'sessions', '2026', '03', d);
    fs.mkdirSync(day('13'), { recursive: true });
    fs.mkdirSync(day('14'), { recursive: true });
    fs.copyFileSync(fixture('codex-rollout.jsonl'), path.join(day('13'), 'rollout-2026-03-13T22-00-00-aaaa.jsonl'));
    const current = path.join(day('14'), 'rollout-2026-03-14T08-00-00-bbbb.jsonl');
    fs.writeFileSync(current, '');
    const turns = readRecentDialogWithFallback('codex', current, { maxTurns: 2, maxChars: 4000 });
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(turns[0]!.text).toContain('skip 掉的測試');
  });
});

/**
 * The bytes a call reads from disk, counted (tail-lines.ts reads with fs.readSync): how much work
 * a large transcript costs, whatever the machine's speed. The time it takes is a speed target of
 * `npm run bench -- transcripts`.
 */
function bytesReadBy<T>(fn: () => T): { result: T; bytes: number } {
  const reads = vi.spyOn(fs, 'readSync');
  try {
    const result = fn();
    const bytes = reads.mock.results.reduce((sum, r) => sum + (r.type === 'return' ? Number(r.value) : 0), 0);
    return { result, bytes };
  } finally {
    reads.mockRestore();
  }
}

const MiB = 1024 * 1024;

describe('large and damaged files', () => {
  it('reads only the end of a 50 MB transcript, never the whole file', () => {
    const file = path.join(dir, 'big.jsonl');
    const noise = JSON.stringify({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x'.repeat(1024 * 1024) }] },
    });
    const fd = fs.openSync(file, 'w');
    for (let i = 0; i < 50; i++) fs.writeSync(fd, `${noise}\n`);
    fs.writeSync(fd, fs.readFileSync(fixture('claude-session.jsonl')));
    fs.closeSync(fd);
    expect(fs.statSync(file).size).toBeGreaterThan(50 * MiB);
    const { result: turns, bytes } = bytesReadBy(() => readRecentDialog('claude', file, { maxTurns: 8, maxChars: 4000 }));
    expect(turns).toHaveLength(6);
    // At most the 8 MiB scan budget (tail-lines.ts), a sixth of the file: a whole-file read would be 50 MB.
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(8 * MiB);
  });

  it('gives up after the scan budget instead of reading a whole file of tool output', () => {
    const file = path.join(dir, 'noisy.jsonl');
    const head = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'very old question' } })}\n`;
    const noise = `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'y'.repeat(1000) } }] } })}\n`;
    fs.writeFileSync(file, head + noise.repeat(20_000));
    const { result, bytes } = bytesReadBy(() => readRecentDialog('claude', file, { maxTurns: 8, maxChars: 4000, maxScanBytes: MiB }));
    expect(result).toEqual([]);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(MiB); // of about 20 MB
  });

  it('survives CRLF line ends, blank lines and a file without a final newline', () => {
    const file = path.join(dir, 'crlf.jsonl');
    const lines = [
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'hello' } }),
      '',
      JSON.stringify({ type: 'assistant', message: { id: 'm', role: 'assistant', content: [{ type: 'text', text: 'hi there' }] } }),
    ];
    fs.writeFileSync(file, lines.join('\r\n'));
    expect(texts(readRecentDialog('claude', file, WIDE))).toEqual(['user: hello', 'assistant: hi there']);
  });
});

describe('turns kept between reads (the daemon answers many loads from one transcript)', () => {
  const claudeLines = (pairs: number) =>
    Array.from({ length: pairs }, (_, i) => [
      JSON.stringify({ type: 'user', message: { role: 'user', content: `第 ${i} 個問題` } }),
      JSON.stringify({
        type: 'assistant',
        message: { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text: `第 ${i} 個回答` }] },
      }),
    ])
      .flat()
      .join('\n') + '\n';
  /** How often `file` is opened while `read` runs. */
  const opensOf = <T>(file: string, read: () => T): { result: T; opens: number } => {
    const opens = vi.spyOn(fs, 'openSync');
    try {
      const result = read();
      return { result, opens: opens.mock.calls.filter(([opened]) => opened === file).length };
    } finally {
      opens.mockRestore();
    }
  };
  afterEach(() => vi.useRealTimers());

  it('reads a settled transcript once, and again once it has changed', () => {
    const file = path.join(dir, 'settled.jsonl');
    fs.writeFileSync(file, claudeLines(2));
    // Five seconds on: the file's last change is past the racy window (file-stamp.ts).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5_000 });
    const first = opensOf(file, () => readRecentDialogWithFallback('claude', file, WIDE));
    const again = opensOf(file, () => readRecentDialogWithFallback('claude', file, WIDE));
    expect(first.opens).toBe(1);
    expect(again.opens).toBe(0);
    expect(again.result).toEqual(first.result);
    expect(texts(again.result)).toEqual(['user: 第 0 個問題', 'assistant: 第 0 個回答', 'user: 第 1 個問題', 'assistant: 第 1 個回答']);
    // Appended to: another stamp, so the new turn is read.
    fs.appendFileSync(file, claudeLines(3).split('\n').slice(4).join('\n'));
    const later = opensOf(file, () => readRecentDialogWithFallback('claude', file, WIDE));
    expect(later.opens).toBe(1);
    expect(texts(later.result).slice(-2)).toEqual(['user: 第 2 個問題', 'assistant: 第 2 個回答']);
  });

  it('keeps one reading per budget: another budget reads the file for itself', () => {
    const file = path.join(dir, 'budgets.jsonl');
    fs.writeFileSync(file, claudeLines(3));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5_000 });
    expect(readRecentDialog('claude', file, WIDE)).toHaveLength(6);
    const narrow = opensOf(file, () => readRecentDialog('claude', file, { maxTurns: 2, maxChars: 10_000 }));
    expect(narrow.opens).toBe(1);
    expect(texts(narrow.result)).toEqual(['user: 第 2 個問題', 'assistant: 第 2 個回答']);
  });

  it('reads a transcript changed within the racy window every time (its stamp may not move yet)', () => {
    const file = path.join(dir, 'fresh.jsonl');
    fs.writeFileSync(file, claudeLines(1));
    const opens = [0, 1].map(() => opensOf(file, () => readRecentDialog('claude', file, WIDE)).opens);
    expect(opens).toEqual([1, 1]);
  });

  it("hands out copies: a caller's changes never reach the next reader", () => {
    const file = path.join(dir, 'copies.jsonl');
    fs.writeFileSync(file, claudeLines(1));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5_000 });
    const first = readRecentDialog('claude', file, WIDE);
    first.pop();
    expect(Object.isFrozen(first[0])).toBe(true);
    expect(texts(readRecentDialog('claude', file, WIDE))).toEqual(['user: 第 0 個問題', 'assistant: 第 0 個回答']);
  });
});
