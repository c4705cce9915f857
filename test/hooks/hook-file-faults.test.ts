import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killAndWait, waitDrained, type ChildRun } from '../ipc/daemon-kit.js';
import { expectFailOpen, runEveryEvent } from './fail-open-kit.js';
import {
  ACTIVE,
  ALL_EVENTS,
  DEFAULT_TURNS,
  claudeTranscriptLines,
  forgetSessions,
  makeHookHome,
  setFresh,
  startReadyDaemon,
  type HookHome,
} from './hook-kit.js';

/**
 * HOOK-2 with bad files and bad input: a memory home where nothing can be written, corrupt
 * memory files, stdin that is not JSON, a 50 MB transcript and a missing one — each with the
 * daemon down (the hook answers from the files) and, where the daemon can run at all, up.
 */
let home: HookHome | undefined;
let daemon: ChildRun | undefined;
afterEach(async () => {
  if (daemon) await killAndWait(daemon, 'SIGTERM');
  daemon = undefined;
  home?.cleanup();
  home = undefined;
});

const SESSION = 'sess-files';

async function bothWays(h: HookHome, check: (label: string) => Promise<void>): Promise<void> {
  forgetSessions(h);
  await check('daemon down');
  forgetSessions(h);
  daemon = await startReadyDaemon(h);
  await check('daemon up');
  // The daemon survived what it was handed, and captured what it was given.
  await waitDrained(h, daemon);
  expect(daemon.isRunning()).toBe(true);
}

describe('bad files and bad input never block the assistant', () => {
  it('memory home unusable: every write fails with ENOTDIR', async () => {
    home = await makeHookHome();
    const blocker = path.join(home.root, 'blocker');
    fs.writeFileSync(blocker, 'a regular file, not a folder');
    const env = { ROLE_MEMORY_HOME: path.join(blocker, 'memory') };
    home.transcript(SESSION);
    for (const [event, run] of await runEveryEvent(home, ALL_EVENTS, SESSION, { env })) {
      // The persona may still load from the role home (memories: none), or the hook may give up.
      expectFailOpen(event, run, event === 'subagent-start' ? 'answer' : 'empty-or-answer', { memories: false });
    }
  });

  it('corrupt memory files (NUL bytes, unclosed frontmatter) are skipped; the rest loads', async () => {
    home = await makeHookHome();
    const roleDir = path.join(home.memoryHome, ACTIVE.id);
    fs.writeFileSync(
      path.join(roleDir, 'daily', '20260301-100000-bad001.md'),
      Buffer.from('---\nid: 20260301-100000-bad001\n\0\0\0summary: \0broken\n---\n\0\0body', 'utf8'),
    );
    fs.writeFileSync(
      path.join(roleDir, 'important', '20260301-100000-bad002.md'),
      '---\nid: 20260301-100000-bad002\nsummary: 這個檔案的 frontmatter 沒有結束\npriority: 5\n\n正文',
    );
    fs.writeFileSync(path.join(roleDir, 'inbox', '20260301-100000-bad003.md'), Buffer.alloc(4096, 0));
    home.transcript(SESSION);
    const h = home;
    await bothWays(h, async (label) => {
      for (const [event, run] of await runEveryEvent(h, ALL_EVENTS, SESSION)) {
        expectFailOpen(event, run, 'answer');
        if (event === 'session-start') expect(run.stdout, label).not.toContain('沒有結束');
      }
    });
  });

  it('stdin that is not JSON: nothing on stdout, nothing spooled', async () => {
    home = await makeHookHome();
    const h = home;
    for (const stdin of ['this is not JSON {', Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0x22, 0x0a])]) {
      for (const [event, run] of await runEveryEvent(h, ALL_EVENTS, SESSION, { stdin: () => stdin })) expectFailOpen(event, run, 'empty');
    }
    expect(fs.existsSync(h.config().paths.spoolDir)).toBe(false);
  });

  it('a 50 MB transcript: the dialog handoff still comes from its last turns, on time', async () => {
    home = await makeHookHome();
    const file = path.join(home.transcriptsDir, `${SESSION}.jsonl`);
    writeHugeTranscript(file, home.project, 50 * 1024 * 1024);
    expect(fs.statSync(file).size).toBeGreaterThanOrEqual(50 * 1024 * 1024);
    const h = home;
    await bothWays(h, async (label) => {
      for (const [event, run] of await runEveryEvent(h, ALL_EVENTS, SESSION)) {
        expectFailOpen(event, run, 'answer');
        if (event === 'session-start') expect(run.stdout, label).toContain('X-Forwarded-For');
      }
    });
  });

  it('a transcript that does not exist', async () => {
    home = await makeHookHome();
    const h = home;
    const missing = path.join(h.root, 'no-such-folder', `${SESSION}.jsonl`);
    await bothWays(h, async () => {
      for (const [event, run] of await runEveryEvent(h, ALL_EVENTS, SESSION, { payloadExtra: { transcript_path: missing } }))
        expectFailOpen(event, run, 'answer');
    });
  });
});

/** A long Claude Code session: mostly big tool results (the lines a reader must skip cheaply), the real dialog at the end. */
function writeHugeTranscript(file: string, cwd: string, bytes: number): void {
  const fd = fs.openSync(file, 'w');
  try {
    const filler = 'const answer = computeTheThing(input); // 這一行是工具輸出的一部分\n'.repeat(150);
    let written = 0;
    let n = 0;
    const chunk: string[] = [];
    while (written < bytes) {
      n += 1;
      const use = JSON.stringify({
        type: 'assistant',
        uuid: `t-${n}`,
        cwd,
        sessionId: SESSION,
        message: {
          id: `msg_t${n}`,
          role: 'assistant',
          content: [{ type: 'tool_use', id: `toolu_${n}`, name: 'Read', input: { file_path: `/src/file-${n}.ts` } }],
        },
      });
      const result = JSON.stringify({
        type: 'user',
        uuid: `r-${n}`,
        cwd,
        sessionId: SESSION,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${n}`, content: filler }] },
      });
      const talk =
        n % 50 === 0 ? claudeTranscriptLines(SESSION, cwd, [[`第 ${n} 個檔案看完了嗎？`, `看完了，第 ${n} 個檔案沒有問題。`]]) : [];
      for (const line of [use, result, ...talk]) {
        chunk.push(line);
        written += Buffer.byteLength(line) + 1;
      }
      if (chunk.length >= 200) fs.writeSync(fd, `${chunk.splice(0).join('\n')}\n`);
    }
    chunk.push(...claudeTranscriptLines(SESSION, cwd, DEFAULT_TURNS));
    fs.writeSync(fd, `${chunk.join('\n')}\n`);
  } finally {
    fs.closeSync(fd);
  }
  setFresh(file);
}
