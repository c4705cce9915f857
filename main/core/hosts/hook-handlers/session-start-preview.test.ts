import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookEvent } from '../../../../common/hook-events.js';
import { silentLogger } from '../../platform/config/log.js';
import { createMemoryCache } from '../../store/memory/memory-cache.js';
import {
  ACTIVE,
  CALLEE,
  DEFAULT_TURNS,
  claudeTranscriptLines,
  makeHookHome,
  setFresh,
  sleepWindowFromNow,
  type HookHome,
} from '../../../../test/hooks/hook-kit.js';
import { snapshotTree } from '../../../../test/helpers/temp-home.js';
import { handleSessionStart } from './session-start-handler.js';
import { newClaudeTranscriptPath, previewSessionStart } from './session-start-preview.js';

/**
 * The "next session" preview is the hook's own load: for the same files, the text equals what
 * handleSessionStart gives a fresh Claude Code session in the same folder, and it writes nothing.
 */
let home: HookHome;
beforeEach(async () => {
  home = await makeHookHome(sleepWindowFromNow(6, 7));
});
afterEach(() => home.cleanup());

/** A previous session in the project's real Claude Code folder, so the load carries its dialog. */
function previousSession(): void {
  const dir = path.dirname(newClaudeTranscriptPath(home.env, home.project));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'earlier-session.jsonl');
  fs.writeFileSync(file, `${claudeTranscriptLines('earlier-session', home.project, DEFAULT_TURNS).join('\n')}\n`);
  setFresh(file);
}

function hookText(env: NodeJS.ProcessEnv = {}): string {
  const config = home.config(env);
  const dir = path.dirname(newClaudeTranscriptPath(home.env, home.project));
  const event: HookEvent = {
    assistant: 'claude',
    event: 'session-start',
    sessionId: 'a-new-session',
    transcriptPath: path.join(dir, 'a-new-session.jsonl'),
    cwd: home.project,
    source: 'startup',
    receivedAt: config.clock.now().toISOString(),
    payloadKeys: [],
  };
  return handleSessionStart({ config, logger: silentLogger, host: 'fallback' }, event).additionalContext ?? '';
}

describe('previewSessionStart', () => {
  it('gives exactly the text SessionStart injects for a new session in the project, and writes nothing', () => {
    previousSession();
    const before = { roles: snapshotTree(home.roleHome), memory: snapshotTree(home.memoryHome) };
    const preview = previewSessionStart(home.config(), silentLogger, { role: ACTIVE.id, project: home.project });
    expect({ roles: snapshotTree(home.roleHome), memory: snapshotTree(home.memoryHome) }).toEqual(before);
    expect(preview.state).toBe('load');
    expect(preview.text).toContain('黑咖啡');
    expect(preview.text).toContain('shop-stg'); // the project's MEMORY.md
    expect(preview.text).toContain('rate limiter'); // the previous session's dialog (CTX-6)
    expect(preview.text).toBe(hookText());
    // With the UI's parsed memories (the daemon's kind of cache) the load is the same.
    const cache = createMemoryCache(home.memoryHome);
    try {
      expect(previewSessionStart(home.config(), silentLogger, { role: ACTIVE.id, project: home.project }, cache).text).toBe(preview.text);
    } finally {
      cache.close();
    }
  });

  it('reports each block against its budget, and what was left out', () => {
    previousSession();
    const config = home.config({ ROLE_LOAD_LIMIT: '60' });
    const preview = previewSessionStart(config, silentLogger, { role: ACTIVE.id, project: home.project });
    const memory = preview.report!.blocks.find((block) => block.name === 'memory')!;
    expect(memory.budget).toEqual({ setting: 'ROLE_LOAD_LIMIT', configured: 60, effective: 60 });
    expect(memory.chars).toBeLessThanOrEqual(60);
    expect(memory.omitted).toBeGreaterThan(0);
    expect(preview.omitted!.memory).toBe(memory.omitted);
    const dialog = preview.report!.blocks.find((block) => block.name === 'dialog')!;
    expect(dialog.budget?.setting).toBe('ROLE_LOAD_DIALOG_LIMIT');
    expect(dialog.shown).toBeGreaterThan(0);
    // The sizes add up to the text: blocks are joined by a blank line.
    const nonEmpty = preview.report!.blocks.filter((block) => block.chars > 0);
    expect(nonEmpty.reduce((sum, block) => sum + block.chars, 0) + (nonEmpty.length - 1) * 2).toBe(preview.text.length);
    expect(preview.text).toBe(hookText({ ROLE_LOAD_LIMIT: '60' }));
  });

  it('previews another role than the active one', () => {
    const preview = previewSessionStart(home.config(), silentLogger, { role: CALLEE.id, project: home.project });
    expect(preview.text).toContain(CALLEE.name);
    expect(preview.text).toContain('麻糬');
    expect(preview.text).not.toContain('黑咖啡');
  });

  it('in the sleep window, shows the sleeping note the hook gives', () => {
    const env = sleepWindowFromNow(-1, 1);
    const preview = previewSessionStart(home.config(env), silentLogger, { role: ACTIVE.id, project: home.project });
    expect(preview.state).toBe('asleep');
    expect(preview.report).toBeNull();
    expect(preview.text).toBe(hookText(env));
  });

  it('while another live session holds the role, shows the notice a new session gets instead', () => {
    // A session that loaded the role a minute ago and is still writing its transcript.
    const holder = home.transcript('holding-session');
    const config = home.config();
    const holderEvent: HookEvent = {
      assistant: 'claude',
      event: 'session-start',
      sessionId: 'holding-session',
      transcriptPath: holder,
      cwd: home.project,
      source: 'startup',
      receivedAt: config.clock.now().toISOString(),
      payloadKeys: [],
    };
    handleSessionStart({ config, logger: silentLogger, host: 'fallback' }, holderEvent);
    const preview = previewSessionStart(config, silentLogger, { role: ACTIVE.id, project: home.project });
    expect(preview.state).toBe('locked');
    expect(preview.text).toContain('holding-session');
    expect(preview.text).toBe(hookText());
    expect(preview.text).not.toContain('黑咖啡');
  });

  it('says when nothing would be injected, and refuses a role that does not exist', () => {
    const off = previewSessionStart(home.config({ ROLE_ENABLED: '0' }), silentLogger, { role: ACTIVE.id, project: home.project });
    expect(off).toMatchObject({ state: 'off', offReason: 'disabled', text: '' });
    expect(() => previewSessionStart(home.config(), silentLogger, { role: 'NOBODY01', project: home.project })).toThrow(/NOBODY01/);
  });
});
