import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../main/core/platform/config/config.js';
import { readStoredSettings } from '../../main/core/platform/config/stored-settings.js';
import { sendEarlyRequest } from '../../hooks/early-request.js';
import { killAndWait, waitDrained, type ChildRun } from '../ipc/daemon-kit.js';
import { claudePayload, forgetSessions, makeHookHome, runHook, startReadyDaemon, type HookHome } from './hook-kit.js';

/**
 * The hook client asks the daemon before it resolves its settings (hooks/early-request.ts). That
 * request must be the client's one request — never a second one beside it — sent where the
 * settings would send it, and left to the client wherever the environment alone cannot say.
 */
let home: HookHome;
let daemon: ChildRun | undefined;

beforeAll(async () => {
  home = await makeHookHome();
});
afterEach(async () => {
  if (daemon) await killAndWait(daemon, 'SIGTERM');
  daemon = undefined;
});
afterAll(() => home?.cleanup());

const lines = (file: string) =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { event: string; eventId: string })
    : [];

describe('the early request, sent through the real daemon', () => {
  it('reaches the daemon once per event: answered or queued, never twice', async () => {
    const answeredLog = path.join(home.root, 'answered.log');
    const queuedLog = path.join(home.root, 'queued.log');
    daemon = await startReadyDaemon(home, { KIOKU_TEST_ANSWERED_LOG: answeredLog, KIOKU_TEST_QUEUED_LOG: queuedLog });
    forgetSessions(home);
    const start = await runHook('session-start', claudePayload(home, 'session-start', 'early-1'), home.env);
    expect(start).toMatchObject({ code: 0, stderr: '' });
    expect(start.stdout).toContain('西莉卡');
    const stop = await runHook('stop', claudePayload(home, 'stop', 'early-1'), home.env);
    expect(stop).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await waitDrained(home, daemon);
    expect(lines(answeredLog).map((line) => line.event)).toEqual(['session-start']);
    expect(lines(queuedLog).map((line) => line.event)).toEqual(['stop']);
    // The hook logs the answer it used: the daemon's, not a fallback after a second request.
    const hooksLog = fs.readFileSync(path.join(home.config().paths.logsDir, 'hooks.log'), 'utf8');
    expect(hooksLog).not.toMatch(/did not answer|asked .* early/);
  });
});

describe('sendEarlyRequest', () => {
  const stdin = (event: Parameters<typeof claudePayload>[1]) => JSON.stringify(claudePayload(home, event, 'early-2'));

  it('asks where the settings would: the socket and token of the config', async () => {
    const early = sendEarlyRequest(['stop', '--assistant', 'codex'], stdin('stop'), home.env, readStoredSettings(home.env));
    expect(early).toBeDefined();
    const { paths } = loadConfig(home.env);
    expect(early!.endpoint).toEqual({ socketPath: paths.socketPath, tokenFile: paths.tokenFile });
    expect(early!.call).toMatchObject({ event: 'stop', assistant: 'codex', payload: claudePayload(home, 'stop', 'early-2') });
    // No daemon here: the request ends at once, as the client's own would.
    await expect(early!.reply).resolves.toMatchObject({ ok: false });
    await early!.sent;
  });

  it('leaves prompts, several parts and unreadable stdin to the client', () => {
    const stored = readStoredSettings(home.env);
    expect(sendEarlyRequest(['user-prompt-submit'], stdin('user-prompt-submit'), home.env, stored)).toBeUndefined();
    expect(sendEarlyRequest(['session-start', '--parts', '2'], stdin('session-start'), home.env, stored)).toBeUndefined();
    expect(sendEarlyRequest(['stop', '--assistant', 'nobody'], stdin('stop'), home.env, stored)).toBeUndefined();
    expect(sendEarlyRequest(['stop'], '{"session_id": ', home.env, stored)).toBeUndefined();
  });

  it('leaves the request to the client when the settings file moves a home', () => {
    const elsewhere = { ...readStoredSettings(home.env), values: { ROLE_MEMORY_HOME: path.join(home.root, 'other-memory') } };
    expect(sendEarlyRequest(['stop'], stdin('stop'), home.env, elsewhere)).toBeUndefined();
  });
});
