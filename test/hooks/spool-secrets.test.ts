import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { SpoolRecord } from '../../common/hook-protocol.js';
import { SPOOL_FAILED, SPOOL_PROCESSING } from '../../main/core/platform/ipc/spool-writer.js';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { killAndWait, type ChildRun } from '../ipc/daemon-kit.js';
import { ALL_SECRETS, SECRET_PROMPT, SECRET_REPLY } from '../helpers/secrets.js';
import { ACTIVE, claudePayload, makeHookHome, runHook, startReadyDaemon, type HookHome } from './hook-kit.js';

/**
 * Issue 13 item 4, PRIV-1 at rest: with the daemon down, the hook client spools every event that
 * needs the app, and an event may wait there for days. A turn whose words hold an API key, a
 * GitHub token, an AWS key and a password must leave no trace of them in any file Kioku writes
 * — before ingestion (the spool itself) and after (memories, logs, session files) — while the
 * turn is still captured.
 */
let home: HookHome | undefined;
const daemons: ChildRun[] = [];
afterEach(async () => {
  for (const daemon of daemons.splice(0)) await killAndWait(daemon, 'SIGTERM');
  home?.cleanup();
  home = undefined;
});

/** Every file under the home but the assistant's own transcripts (the test wrote the secrets there), gunzipped when gzipped. */
function filesHoldingSecrets(h: HookHome): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (full === h.transcriptsDir) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const bytes = fs.readFileSync(full);
        const text = (full.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes).toString('utf8');
        for (const secret of ALL_SECRETS) if (text.includes(secret)) found.push(`${path.relative(h.root, full)}: ${secret.slice(0, 8)}…`);
      }
    }
  };
  walk(h.root);
  return found;
}

const jsonFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.json')) : []);

describe('a turn holding secrets, spooled with the daemon down', () => {
  it('leaves no secret in clear under the home, in the spool or after ingestion, and the turn is still captured (redacted)', async () => {
    const h = (home = await makeHookHome());
    const session = 'sess-secret';
    h.transcript(session, [
      ['先幫我看一下 CI 為什麼紅了', 'CI 的 lint 步驟失敗，是少了一個分號。'],
      [SECRET_PROMPT, SECRET_REPLY],
      // The session went on while the daemon was down: the Stop must still find its own turn.
      ['好，那今天先這樣', '好，明天見。'],
    ]);
    const gemini = {
      session_id: 'gem-secret',
      transcript_path: path.join(h.root, 'gemini-chats', 'session-gem-secret.json'),
      cwd: h.project,
      hook_event_name: 'AfterAgent',
      prompt: SECRET_PROMPT,
      prompt_response: SECRET_REPLY,
      stop_hook_active: false,
    };
    const runs = [
      await runHook('stop', claudePayload(h, 'stop', session, { last_assistant_message: SECRET_REPLY }), h.env),
      await runHook('pre-compact', claudePayload(h, 'pre-compact', session, { custom_instructions: `保留這個：${SECRET_PROMPT}` }), h.env),
      await runHook(
        'post-compact',
        claudePayload(h, 'post-compact', session, { compact_summary: `使用者交代了部署設定。${SECRET_PROMPT}` }),
        h.env,
      ),
      await runHook('stop', gemini, h.env, { args: ['--assistant', 'gemini'] }),
      await runHook('session-end', claudePayload(h, 'session-end', session), h.env),
    ];
    for (const run of runs) expect(run).toMatchObject({ code: 0, signal: null, stdout: '', stderr: '' });
    const { spoolDir } = h.config().paths;
    const spooled = jsonFiles(spoolDir).map((name) => JSON.parse(fs.readFileSync(path.join(spoolDir, name), 'utf8')) as SpoolRecord);
    expect(spooled.map((record) => record.event)).toEqual(['stop', 'pre-compact', 'post-compact', 'stop', 'session-end']);
    expect(filesHoldingSecrets(h)).toEqual([]);
    // The turn's words are still there, masked, and what ingestion reads is untouched.
    const stop = spooled[0]!.payload as Record<string, string>;
    expect(stop.last_assistant_message).toMatch(
      /^好，我記住了：部署前先確認 \.env。AWS 的 key \[REDACTED:aws-key\] 和 NPM_TOKEN=\[REDACTED:npm\]/,
    );
    expect(stop).toMatchObject({ session_id: session, transcript_path: path.join(h.transcriptsDir, `${session}.jsonl`), cwd: h.project });

    // The daemon ingests the spool before it says ready.
    daemons.push(await startReadyDaemon(h));
    expect(jsonFiles(spoolDir)).toEqual([]);
    expect(jsonFiles(path.join(spoolDir, SPOOL_PROCESSING))).toEqual([]);
    expect(jsonFiles(path.join(spoolDir, SPOOL_FAILED))).toEqual([]);
    const memories = loadRoleMemories(h.memoryHome, ACTIVE.id).memories;
    const captured = memories.filter((memory) => String(memory.extra.source ?? '') === 'capture:claude');
    const capturedText = captured.map((memory) => `${memory.summary}\n${memory.body}`).join('\n');
    // The user's words of that turn (from the transcript), not the newest ones.
    expect(capturedText).toContain('正式機的部署金鑰放在 .env');
    expect(capturedText).toContain('[REDACTED:');
    const summary = memories.find((memory) => String(memory.extra.source ?? '') === 'post-compact:claude');
    expect(summary?.body).toContain('使用者交代了部署設定。');
    expect(filesHoldingSecrets(h)).toEqual([]);
  });
});
