import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastTurn } from '../../main/core/hosts/hook-handlers/handle-queued-call.js';
import { redactPayloadForSpool } from '../../main/core/platform/ipc/spool-redaction.js';
import { SECRETS } from '../helpers/secrets.js';

let dir: string | undefined;
afterEach(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

function transcript(lines: Array<['user' | 'assistant', string]>): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-turn-'));
  const file = path.join(dir, 's.jsonl');
  fs.writeFileSync(
    file,
    lines
      .map(([role, text], i) =>
        JSON.stringify({
          type: role,
          uuid: `u${i}`,
          sessionId: 's',
          message: { role, content: role === 'user' ? text : [{ type: 'text', text }] },
        }),
      )
      .join('\n') + '\n',
  );
  return file;
}

describe('lastTurn', () => {
  it('pairs a replayed Stop with the user words before its own reply, not the newest ones', () => {
    const file = transcript([
      ['user', '第一個問題'],
      ['assistant', '第一個回答'],
      ['user', '記住：我習慣用 pnpm'],
      ['assistant', '好，記下了'],
      ['user', '今天好累'],
      ['assistant', '辛苦了'],
    ]);
    expect(lastTurn({ assistant: 'claude', transcriptPath: file, lastAssistantMessage: '好，記下了' })).toEqual({
      userText: '記住：我習慣用 pnpm',
      assistantText: '好，記下了',
    });
    expect(lastTurn({ assistant: 'claude', transcriptPath: file, lastAssistantMessage: '辛苦了' }).userText).toBe('今天好累');
  });

  it('pairs a replayed Stop whose reply the spool keeps redacted with the words before that reply', () => {
    // The spool holds `GITHUB_TOKEN=[REDACTED:github-token]`; the transcript's reply is redacted
    // when read. Both must come out alike, or the turn gets the newest user words instead.
    const reply = `設好了：GITHUB_TOKEN=${SECRETS.github}`;
    const file = transcript([
      ['user', '幫我設 CI 的 token'],
      ['assistant', reply],
      ['user', '今天好累'],
      ['assistant', '辛苦了'],
    ]);
    const spooled = redactPayloadForSpool({ last_assistant_message: reply }) as { last_assistant_message: string };
    expect(spooled.last_assistant_message).not.toContain(SECRETS.github);
    const turn = lastTurn({ assistant: 'claude', transcriptPath: file, lastAssistantMessage: spooled.last_assistant_message });
    expect(turn).toEqual({ userText: '幫我設 CI 的 token', assistantText: spooled.last_assistant_message });
  });

  it('falls back to the last user words when the transcript has not caught up with the reply', () => {
    const file = transcript([['user', '最新的問題']]);
    expect(lastTurn({ assistant: 'claude', transcriptPath: file, lastAssistantMessage: '還沒寫進 transcript 的回答' })).toEqual({
      userText: '最新的問題',
      assistantText: '還沒寫進 transcript 的回答',
    });
  });
});
