import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import type { HookCall } from '../../common/hook-protocol.js';
import { silentLogger } from '../../main/core/platform/config/log.js';
import { createDaemonHookHandlers, type DaemonHookHandlers } from '../../main/core/hosts/daemon/daemon-hook-handlers.js';
import { DAY, SILICA, YUI, makeCallHome, writeTranscript, type CallHome } from './call-fixtures.js';

/**
 * The daemon keeps the last terminal's config between events (daemon-hook-handlers.ts): a change
 * to the settings file, or another terminal's settings, must still reach the very next event.
 */
let home: CallHome;
let handlers: DaemonHookHandlers | undefined;
afterEach(() => {
  handlers?.close();
  handlers = undefined;
  home?.cleanup();
});

function callByName(sessionId: string, env: Record<string, string> = {}): HookCall {
  const transcript = writeTranscript(home, sessionId);
  return {
    eventId: `call-${sessionId}`,
    assistant: 'claude',
    event: 'user-prompt-submit',
    payload: { session_id: sessionId, transcript_path: transcript, cwd: home.root, prompt: '西莉卡，幫我看這段' },
    env,
    at: DAY.toISOString(),
  };
}

it('answers each event with the settings file as it is at that event, and each terminal with its own settings', async () => {
  home = makeCallHome([SILICA, YUI]);
  handlers = createDaemonHookHandlers(home.env, silentLogger);
  const { settingsFile } = home.config().paths;

  expect((await handlers.handleHook(callByName('sess-1'))).stdout).toContain('西莉卡');
  fs.writeFileSync(settingsFile, JSON.stringify({ ROLE_CALL_ENABLED: false }));
  expect((await handlers.handleHook(callByName('sess-2'))).stdout).toBe('');
  // The same terminal again, the file unchanged: still off (what was kept is the right config).
  expect((await handlers.handleHook(callByName('sess-3'))).stdout).toBe('');
  // Another terminal whose environment turns it back on.
  expect((await handlers.handleHook(callByName('sess-4', { ROLE_CALL_ENABLED: '1' }))).stdout).toContain('西莉卡');
  fs.rmSync(settingsFile);
  expect((await handlers.handleHook(callByName('sess-5'))).stdout).toContain('西莉卡');
});
