import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerHookCall } from '../../main/core/hosts/hook-handlers/answer-hook-call.js';
import { silentLogger } from '../../main/core/platform/config/log.js';
import { claimRole } from '../../main/core/store/sessions/role-locks.js';
import { listLockedRoleIds } from '../../main/core/store/sessions/role-lock-file.js';
import { ACTIVE, claudePayload, forgetSessions, makeHookHome, runHook, type HookHome } from './hook-kit.js';

/**
 * LOCK-1 with a memory home that cannot be used (ROLE_MEMORY_HOME below a regular file, so every
 * write fails with ENOTDIR): SessionStart claimed the role, then failed before the persona was
 * injected — and the lock stayed, refusing the role to every other session for a role nobody had
 * loaded. Whatever the hook answers, a lock may only remain when the persona was injected.
 */
let home: HookHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const SESSION = 'sess-enotdir';

async function unusableMemoryHome(): Promise<{ h: HookHome; env: NodeJS.ProcessEnv }> {
  const h = await makeHookHome();
  home = h;
  const blocker = path.join(h.root, 'blocker');
  fs.writeFileSync(blocker, 'a regular file, not a folder');
  h.transcript(SESSION);
  forgetSessions(h);
  return { h, env: { ...h.env, ROLE_MEMORY_HOME: path.join(blocker, 'memory') } };
}

describe('a SessionStart that cannot load the persona leaves no role lock', () => {
  it('through the real hook client: exit 0, nothing harmful on stdout, and no lock without a persona', async () => {
    const { h, env } = await unusableMemoryHome();
    const run = await runHook('session-start', claudePayload(h, 'session-start', SESSION), env);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/ENOTDIR|Error|\bat .+:\d+:\d+/);
    const injected = run.stdout.includes(ACTIVE.name);
    expect(listLockedRoleIds(h.config(env))).toEqual(injected ? [ACTIVE.id] : []);
    // The role is free for the next session, which is refused only when a persona is loaded.
    const other = claimRole(h.config(env), ACTIVE.id, {
      assistant: 'claude',
      sessionId: 'sess-other',
      transcriptPath: h.transcript('sess-other'),
    });
    expect(other.ok).toBe(!injected);
  });

  it('releases only its own lock: a role another live session holds stays held', async () => {
    const { h, env } = await unusableMemoryHome();
    const config = h.config(env);
    const holder = { assistant: 'claude' as const, sessionId: 'sess-holder', transcriptPath: h.transcript('sess-holder') };
    expect(claimRole(config, ACTIVE.id, holder)).toMatchObject({ ok: true, how: 'created' });
    // Refused by the lock (the holder's transcript is fresh), so this start claims nothing and
    // must release nothing, whether it answers the lock notice or fails.
    try {
      answerHookCall(
        { config, logger: silentLogger, host: 'fallback' },
        { assistant: 'claude', event: 'session-start', payload: claudePayload(h, 'session-start', SESSION) },
      );
    } catch {
      /* the unusable state folder may still make it fail */
    }
    const lock = JSON.parse(fs.readFileSync(path.join(h.roleHome, '.locks', `${ACTIVE.id}.lock`), 'utf8')) as { transcriptPath: string };
    expect(lock.transcriptPath).toBe(holder.transcriptPath);
  });
});
