import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DigestDetail, SessionPreviewView, SleepHistory } from '../../../../common/ui-contract.js';
import { startTestApi, type TestApi } from '../../../../test/helpers/web-api.js';
import { ROLE, scriptedPlanner, writeExisting, writeInbox } from '../../../../test/sleep/sleep-fixtures.js';
import { createRole, planRoleChange } from '../../store/roles/role-editor.js';
import { consolidateRole } from '../../engine/sleep/consolidate-role.js';

/** The "next session" preview and a digest's details over HTTP, as the UI calls them. */
let api: TestApi | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

const NOW = '2026-11-30T14:00:00+08:00';

describe('context.preview', () => {
  it('answers the load for a role and a folder, and refuses a folder that does not exist', async () => {
    api = await startTestApi({ now: NOW, env: { KIOKU_NOW: NOW } });
    const config = api.home.config();
    const plan = planRoleChange(config, {
      id: 'ENGINEER01',
      name: '小豹',
      nature: '冷靜的工程師。',
      vibe: '簡潔。',
      emoji: '🐆',
      aliases: [],
      relationship: '同事。',
    });
    if (plan.kind !== 'create') throw new Error('expected a new role');
    createRole(config, plan);
    const project = path.join(api.home.root, 'shop');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'MEMORY.md'), '# shop\n- 先跑 npm test\n');
    const preview = await api.value<SessionPreviewView>('context.preview', { role: 'ENGINEER01', project });
    expect(preview).toMatchObject({ role: 'ENGINEER01', cwd: project, state: 'load', partLimit: 9800, maxParts: 1 });
    expect(preview.text).toContain('小豹');
    expect(preview.text).toContain('先跑 npm test');
    expect(preview.blocks.find((block) => block.name === 'projectMemory')?.chars).toBeGreaterThan(0);
    expect(preview.blocks.find((block) => block.name === 'memory')?.budget).toEqual({
      setting: 'ROLE_LOAD_LIMIT',
      configured: 4000,
      effective: 4000,
    });

    expect(await api.call('context.preview', { role: 'ENGINEER01', project: path.join(api.home.root, 'nope') })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await api.call('context.preview', { role: '../x' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });
});

describe('sleep.history and sleep.digest', () => {
  it('gives each digest its record and reason, the last sleep, and opens a digest into its memories', async () => {
    api = await startTestApi({ now: '2026-11-30T03:00:00+08:00', env: { KIOKU_NOW: '2026-11-30T03:00:00+08:00' } });
    const { memoryHome } = api.home;
    writeExisting(memoryHome, 'EPI', { category: 'daily', memory_type: 'episodic', priority: 4 }, '之前的工作紀錄。');
    for (let n = 0; n < 4; n++)
      writeInbox(memoryHome, { id: `I${n}`, body: `第 ${n} 件事。記號-${n}。`, created: `2026-11-29T10:0${n}:00+08:00` });
    expect((await api.value<SleepHistory>('sleep.history', { role: ROLE, count: 10 })).lastSleep).toBeNull();
    await consolidateRole(api.home.config(), ROLE, { planner: scriptedPlanner(), reason: 'catch-up' });

    const history = await api.value<SleepHistory>('sleep.history', { role: ROLE, count: 10 });
    expect(history.lastSleep).toMatch(/^2026-11-30T03:00:00/);
    expect(history.digests[0]).toMatchObject({ reason: 'catch-up', record: expect.stringMatching(/^plan:/) });
    const detail = await api.value<DigestDetail>('sleep.digest', { role: ROLE, record: history.digests[0]!.record });
    expect(detail.reason).toBe('catch-up');
    expect(detail.created.length).toBeGreaterThan(0);
    expect(detail.created.every((memory) => memory.exists && memory.id)).toBe(true);
    expect(await api.call('sleep.digest', { role: ROLE, record: 'plan:../../x' })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
    expect(await api.call('sleep.digest', { role: ROLE, record: 'plan:20200101-000000-0000' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });
});
