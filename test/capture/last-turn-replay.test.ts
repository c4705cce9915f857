import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastTurn } from '../../main/core/hosts/hook-handlers/handle-queued-call.js';

/**
 * A Stop handled late (spooled while the daemon was down, or queued behind others) reads a
 * transcript that has grown since. Its words must still be the ones before its own reply: found
 * however far back the reply now is, and found when the reply is only the end of a turn that
 * tool calls split into several text blocks. Found by the "no turn lost" capture test, where
 * turns came out paired with the words of a turn 20 exchanges later.
 */
let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const base = (n: number) => ({
  isSidechain: false,
  cwd: '/p',
  sessionId: 's',
  version: '2.1.9',
  userType: 'external',
  timestamp: new Date(Date.UTC(2026, 2, 10, 6, 0, n)).toISOString(),
});
const userLine = (n: number, text: string) => ({ ...base(n), type: 'user', uuid: `u${n}`, message: { role: 'user', content: text } });
const textLine = (n: number, text: string) => ({
  ...base(n),
  type: 'assistant',
  uuid: `a${n}-${text.length}`,
  message: { id: `m${n}`, role: 'assistant', content: [{ type: 'text', text }] },
});

function transcript(lines: object[]): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-replay-'));
  const file = path.join(dir, 's.jsonl');
  fs.writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return file;
}

describe('lastTurn for a Stop replayed after the session went on', () => {
  it('pairs the reply with its own words when 60 exchanges came after it', () => {
    const lines: object[] = [];
    for (let i = 0; i < 70; i++) lines.push(userLine(i, `第 ${i} 個問題`), textLine(i, `第 ${i} 個回答`));
    const file = transcript(lines);
    const turn = lastTurn({ assistant: 'claude', transcriptPath: file, lastAssistantMessage: '第 5 個回答' });
    expect(turn).toEqual({ userText: '第 5 個問題', assistantText: '第 5 個回答', userAt: '2026-03-10T06:00:05.000Z' });
  });

  it('finds a reply that is the last text block of a turn split by tool calls', () => {
    const file = transcript([
      userLine(1, '幫我把 lint 錯誤修掉'),
      textLine(1, '我先跑一次 lint。'),
      {
        ...base(1),
        type: 'assistant',
        uuid: 'tool-1',
        message: {
          id: 'm1',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm run lint' } }],
        },
      },
      {
        ...base(1),
        type: 'user',
        uuid: 'result-1',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '3 errors' }] },
      },
      textLine(1, '三個錯誤都修好了。'),
      userLine(2, '再幫我寫測試'),
      textLine(2, '測試寫好了。'),
    ]);
    expect(lastTurn({ assistant: 'claude', transcriptPath: file, lastAssistantMessage: '三個錯誤都修好了。' }).userText).toBe(
      '幫我把 lint 錯誤修掉',
    );
  });

  it('still takes the newest words when the transcript has not caught up with the reply', () => {
    const lines: object[] = [];
    for (let i = 0; i < 50; i++) lines.push(userLine(i, `第 ${i} 個問題`), textLine(i, `第 ${i} 個回答`));
    lines.push(userLine(50, '最新的問題'));
    const file = transcript(lines);
    expect(lastTurn({ assistant: 'claude', transcriptPath: file, lastAssistantMessage: '還沒寫進 transcript 的回答' }).userText).toBe(
      '最新的問題',
    );
  });
});
