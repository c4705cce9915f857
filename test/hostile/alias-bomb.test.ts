import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ACTIVE, claudePayload, makeHookHome, runHook, type HookHome } from '../hooks/hook-kit.js';
import { billionLaughs, plantFile, readLogs, runKiokuChild, SMALL_HEAP } from './hostile-kit.js';

/**
 * Issue 14, item 1: a ~420-byte YAML alias bomb in one memory file took every command that read
 * the role's memories out of heap (js-yaml keeps aliases as shared references; whatever walked
 * them — a tag list, a write-back, a status count — expanded 9^9 strings), and `memory recall`
 * wrote the expanded value back. Now the front matter is refused (guarded-yaml.ts): each command
 * names the file, skips it, still serves the other memories, and never rewrites it.
 */
let home: HookHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const BOMB_ID = '20260301-100000-b0b0';

async function bombedHome(): Promise<{ home: HookHome; bomb: string; bytes: Buffer }> {
  home = await makeHookHome();
  // 炸彈 and lol are in its summary and body: a recall for them would pick it (and write back hits).
  const bomb = plantFile(home.memoryHome, ACTIVE.id, 'daily', `${BOMB_ID}.md`, billionLaughs(BOMB_ID));
  return { home, bomb, bytes: fs.readFileSync(bomb) };
}

/** The refusal as every reader words it: the file's path, then why (guarded-yaml.ts). */
const refusedLine = (file: string) => new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: its front matter uses a YAML anchor`);

describe('a YAML alias bomb in a memory file is named, skipped and never rewritten', () => {
  it('kioku status', async () => {
    const { home, bomb, bytes } = await bombedHome();
    const run = await runKiokuChild(['status'], home.env);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).toMatch(refusedLine(bomb));
    expect(run.stdout).toContain(ACTIVE.id);
    expect(fs.readFileSync(bomb)).toEqual(bytes);
  });

  it('kioku memory recall: the other memories are found, the bomb is not touched', async () => {
    const { home, bomb, bytes } = await bombedHome();
    const coffee = await runKiokuChild(['memory', 'recall', '--role', ACTIVE.id, '--query', '黑咖啡'], home.env);
    expect(coffee.signal).toBeNull();
    expect(coffee.code).toBe(0);
    expect(coffee.stdout).toContain('老大喜歡早上喝黑咖啡');
    expect(coffee.stderr).toMatch(refusedLine(bomb));
    // Its own words: before, recall matched the bomb and wrote the expanded aliases back.
    const own = await runKiokuChild(['memory', 'recall', '--role', ACTIVE.id, '--query', '炸彈 lol'], home.env);
    expect(own.signal).toBeNull();
    expect(own.code).toBe(0);
    expect(own.stdout).not.toContain(BOMB_ID);
    expect(fs.readFileSync(bomb)).toEqual(bytes);
  });

  it('kioku memory stats', async () => {
    const { home, bomb, bytes } = await bombedHome();
    const run = await runKiokuChild(['memory', 'stats', '--role', ACTIVE.id], home.env);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(refusedLine(bomb));
    expect(run.stdout).toMatch(/unreadable files: 1/);
    expect(fs.readFileSync(bomb)).toEqual(bytes);
  });

  it('kioku sleep --force: the inbox is consolidated, the bomb is reported and left as it is', async () => {
    const { home, bomb, bytes } = await bombedHome();
    const run = await runKiokuChild(['sleep', '--force', '--role', ACTIVE.id, '--json'], home.env);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { roles: Array<{ id: string; ok: boolean; processed: number; warnings?: string[] }> };
    const role = result.roles.find((r) => r.id === ACTIVE.id)!;
    expect(role.ok).toBe(true);
    expect(role.processed).toBe(1); // the one inbox item of makeHookHome
    expect(`${JSON.stringify(role.warnings ?? [])}\n${run.stderr}`).toMatch(new RegExp(`${BOMB_ID}\\.md`));
    expect(fs.readFileSync(bomb)).toEqual(bytes);
  });

  it('the SessionStart hook (daemon down): the persona and the other memories load; the log names the file', async () => {
    const { home, bomb, bytes } = await bombedHome();
    home.transcript('sess-bomb');
    const run = await runHook('session-start', claudePayload(home, 'session-start', 'sess-bomb'), { ...home.env, ...SMALL_HEAP });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(ACTIVE.name);
    expect(run.stdout).toContain('黑咖啡');
    expect(run.stdout).not.toContain('lol');
    expect(readLogs(home.config().paths.logsDir)).toMatch(refusedLine(bomb));
    expect(fs.readFileSync(bomb)).toEqual(bytes);
  });
});
