import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../main/core/platform/config/log.js';
import { countProjectMemoryChars } from '../../main/core/store/notes/notes-limits.js';
import { answerHookCall } from '../../main/core/hosts/hook-handlers/answer-hook-call.js';
import { handleQueuedCall } from '../../main/core/hosts/hook-handlers/handle-queued-call.js';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { projectStatus, projectStatusLines } from '../../main/core/engine/context/project-status.js';
import { createRole, planRoleChange } from '../../main/core/store/roles/role-editor.js';
import { runSleep } from '../../main/core/engine/sleep/run-sleep.js';
import { claudeTranscriptLines } from '../hooks/hook-kit.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * Issue 12, failure 7: a repository's naming rule said in one project was injected in a session
 * in another. Two projects (two git repositories, one of them a worktree whose `.git` is a file),
 * a convention said in a subfolder of A and a user-wide wish said in A too, a night's sleep with
 * the local planner; then SessionStart in B has the wish but not the convention, SessionStart in
 * A has both, and A's MEMORY.md (DSH-2) has the convention while B gets no MEMORY.md made for it.
 * Everything in-process through the daemon's own handlers (the Stop goes through the hook
 * payload's `cwd`, as from an assistant). The clock is frozen in local time, 14:00, so the
 * session is outside the sleep window in every zone.
 */
const ROLE = { id: 'SILICA01', name: '西莉卡' };
const NOW_LOCAL = '2026-03-10T14:00:00';
const CONVENTION = '這個 repo 的函式名一律用 kio_ 前綴，檔名一律用 kebab-case。';
const WISH = '以後都用繁體中文回我，語氣輕鬆一點。';

let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

function setUp() {
  const h = makeTempHome({ KIOKU_NOW: NOW_LOCAL, ROLE_CLI: 'local', ROLE_SINGLE_INSTANCE: '0' });
  home = h;
  const config = h.config();
  const plan = planRoleChange(config, {
    id: ROLE.id,
    name: ROLE.name,
    nature: '冷靜可靠的資深工程師。',
    vibe: '簡潔直白。',
    emoji: '✨',
    aliases: [],
  });
  if (plan.kind !== 'create') throw new Error('expected to create the role');
  createRole(config, plan);
  const repoA = path.join(h.root, 'work', 'shop-api');
  const repoB = path.join(h.root, 'work', 'blog');
  fs.mkdirSync(path.join(repoA, '.git'), { recursive: true });
  fs.mkdirSync(path.join(repoA, 'src', 'cart'), { recursive: true });
  fs.writeFileSync(path.join(repoA, 'MEMORY.md'), '# shop-api\n\n- 每次 push 之前先跑測試。\n');
  fs.mkdirSync(repoB, { recursive: true });
  fs.writeFileSync(path.join(repoB, '.git'), `gitdir: ${path.join(h.root, 'work', 'blog-main', '.git', 'worktrees', 'blog')}\n`);
  return { h, config, repoA, repoB };
}

async function stop(config: ReturnType<TempHome['config']>, dir: string, cwd: string, session: string, user: string, reply: string) {
  const transcript = path.join(dir, `${session}.jsonl`);
  fs.writeFileSync(transcript, `${claudeTranscriptLines(session, cwd, [[user, reply]]).join('\n')}\n`);
  const payload = {
    session_id: session,
    transcript_path: transcript,
    cwd,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: reply,
  };
  await handleQueuedCall(
    { config, logger: silentLogger, host: 'daemon' },
    { eventId: `ev-${session}`, assistant: 'claude', event: 'stop', payload, env: {} },
  );
}

function sessionStart(config: ReturnType<TempHome['config']>, cwd: string, session: string): string {
  const payload = { session_id: session, cwd, hook_event_name: 'SessionStart', source: 'startup' };
  return answerHookCall({ config, logger: silentLogger, host: 'fallback' }, { assistant: 'claude', event: 'session-start', payload });
}

describe('a project convention stays in its project (issue 12)', () => {
  it('is injected in project A and offered to its MEMORY.md, not injected in project B; a user-wide wish reaches both', async () => {
    const { h, config, repoA, repoB } = setUp();
    const transcripts = path.join(h.root, '.claude', 'projects', 'x');
    fs.mkdirSync(transcripts, { recursive: true });
    await stop(config, transcripts, path.join(repoA, 'src', 'cart'), 's-conv', CONVENTION, '好，之後新函式都加 kio_ 前綴。');
    await stop(config, transcripts, path.join(repoA, 'src'), 's-wish', WISH, '好的，之後都用繁體中文。');

    const inbox = loadRoleMemories(config.paths.memoryHome, ROLE.id).memories.filter((memory) => memory.category === 'inbox');
    const convention = inbox.find((memory) => memory.summary.includes('kio_'));
    const wish = inbox.find((memory) => memory.summary.includes('繁體中文'));
    // Captured with the git top level of the cwd, not the subfolder the session was in.
    expect(convention?.extra).toMatchObject({ project: repoA, project_specific: true });
    expect(wish?.extra).toMatchObject({ project: repoA });
    expect(wish?.extra.project_specific).toBeUndefined();

    const slept = await runSleep(config, { role: ROLE.id, reason: 'manual', force: true });
    expect(slept.roles[0]).toMatchObject({ ok: true, left: 0 });
    const kept = loadRoleMemories(config.paths.memoryHome, ROLE.id).memories.filter((memory) => memory.category !== 'inbox');
    expect(kept.find((memory) => memory.summary.includes('kio_'))?.extra).toMatchObject({ project: repoA, project_specific: true });

    const inB = sessionStart(config, repoB, 's-b');
    expect(inB).toContain(ROLE.name);
    expect(inB).toContain('繁體中文');
    expect(inB).not.toContain('kio_');
    const inA = sessionStart(config, path.join(repoA, 'src'), 's-a');
    expect(inA).toContain('kio_');
    expect(inA).toContain('繁體中文');

    const memoryA = fs.readFileSync(path.join(repoA, 'MEMORY.md'), 'utf8');
    expect(memoryA.startsWith('# shop-api\n\n- 每次 push 之前先跑測試。\n')).toBe(true);
    expect(memoryA).toMatch(/\n- .*kio_.*\n$/);
    expect(memoryA).not.toContain('繁體中文');
    expect(fs.existsSync(path.join(repoB, 'MEMORY.md'))).toBe(false);

    // A second night offers nothing twice.
    await runSleep(config, { role: ROLE.id, reason: 'manual', force: true });
    expect(fs.readFileSync(path.join(repoA, 'MEMORY.md'), 'utf8')).toBe(memoryA);
  });

  it('never cuts MEMORY.md: a convention that would pass its cap waits, and project A’s session says so', async () => {
    const { h, config, repoA } = setUp();
    const transcripts = path.join(h.root, '.claude', 'projects', 'x');
    fs.mkdirSync(transcripts, { recursive: true });
    const full = `# shop-api\n\n${'- 既有的專案筆記，保持原樣。\n'.repeat(498)}`;
    fs.writeFileSync(path.join(repoA, 'MEMORY.md'), full);
    expect(countProjectMemoryChars(full)).toBeLessThanOrEqual(8000); // within its cap, with no room for one more line
    await stop(config, transcripts, repoA, 's-conv', CONVENTION, '好，之後新函式都加 kio_ 前綴。');

    const slept = await runSleep(config, { role: ROLE.id, reason: 'manual', force: true });
    expect(slept.roles[0]?.warnings.join('\n')).toMatch(/1 convention\(s\) of .*shop-api wait: MEMORY\.md would exceed 8000 characters/);
    expect(fs.readFileSync(path.join(repoA, 'MEMORY.md'), 'utf8')).toBe(full);
    const inA = sessionStart(config, repoA, 's-a');
    expect(inA).toContain('等著寫進專案記憶的慣例');
    expect(inA).toMatch(/本專案有 1 條慣例還沒寫進 .*MEMORY\.md：它已有 [\d,]+\/8,000 字元/);
    expect(inA).toContain('kio_');
    // `kioku status` in the project says it too.
    const status = projectStatusLines(projectStatus(config, ROLE.id, path.join(repoA, 'src')));
    expect(status.line).toMatch(/^專案 project: .*shop-api — MEMORY\.md [\d,]+\/8,000 字元; 1 convention\(s\) not in it yet$/);
    expect(status.warning).toMatch(
      /^1 convention\(s\) of .*shop-api wait: .*MEMORY\.md would pass 8000 characters, so nothing was written or cut/,
    );

    // The user makes room; the next sleep adds it and the note is gone.
    fs.writeFileSync(path.join(repoA, 'MEMORY.md'), '# shop-api\n');
    await runSleep(config, { role: ROLE.id, reason: 'manual', force: true });
    expect(fs.readFileSync(path.join(repoA, 'MEMORY.md'), 'utf8')).toMatch(/^# shop-api\n- .*kio_.*\n$/);
    expect(sessionStart(config, repoA, 's-a2')).not.toContain('等著寫進專案記憶的慣例');
    expect(projectStatusLines(projectStatus(config, ROLE.id, repoA)).warning).toBeUndefined();
  });

  it('a session or sub-agent opened in a subfolder gets the project’s MEMORY.md (the file capture offers to)', () => {
    const { config, repoA } = setUp();
    const sub = path.join(repoA, 'src', 'cart');
    expect(sessionStart(config, sub, 's-sub')).toContain('每次 push 之前先跑測試');
    const payload = { session_id: 's-sub', cwd: sub, hook_event_name: 'SubagentStart', agent_id: 'agent-1', agent_type: 'Explore' };
    const subagent = answerHookCall(
      { config, logger: silentLogger, host: 'fallback' },
      { assistant: 'claude', event: 'subagent-start', payload },
    );
    expect(subagent).toContain('每次 push 之前先跑測試');
  });
});
