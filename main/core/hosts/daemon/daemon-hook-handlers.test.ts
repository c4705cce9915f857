import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { copySeed000Fixture, SEED000_ROLE } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { silentLogger } from '../../platform/config/log.js';
import { preparedLoadPath } from '../../platform/config/prepared-paths.js';
import { createRole, planRoleChange } from '../../store/roles/role-editor.js';
import { createDaemonHookHandlers, type DaemonHookHandlers } from './daemon-hook-handlers.js';

/**
 * The daemon reads the current role's memory files in the background at start (memory-cache.ts
 * `warm`): the warm is work its status shows, and when it ends the role's load is prepared and
 * written to disk, for a hook that later finds no daemon (issue 17).
 */
let home: TempHome | undefined;
let handlers: DaemonHookHandlers | undefined;
afterEach(() => {
  handlers?.close();
  handlers = undefined;
  home?.cleanup();
  home = undefined;
});

/** Polls; 30 s is a safety net for a loaded machine, not a budget. */
async function eventually(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 1500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
}

it('reads the current role at start as background work, and writes its prepared load once it is read', async () => {
  home = makeTempHome({ ROLE_NAME: SEED000_ROLE });
  const plan = planRoleChange(home.config(), {
    id: SEED000_ROLE,
    name: '西莉卡',
    nature: '冷靜。',
    vibe: '簡潔。',
    emoji: '✨',
    relationship: '同事。',
  });
  if (plan.kind !== 'create') throw new Error('expected a new role');
  createRole(home.config(), plan);
  const roleDir = copySeed000Fixture(home.memoryHome);
  // Copied a moment ago: files that new could still change under the same time stamp, and the
  // prepared load would wait for them (prepared-load-stamps.ts). Saved an hour ago, as a user's are.
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const category of fs.readdirSync(roleDir)) {
    const folder = path.join(roleDir, category);
    for (const name of fs.readdirSync(folder)) fs.utimesSync(path.join(folder, name), hourAgo, hourAgo);
    fs.utimesSync(folder, hourAgo, hourAgo);
  }
  const prepared = preparedLoadPath(home.config().paths, SEED000_ROLE);
  handlers = createDaemonHookHandlers(home.env, silentLogger);
  // The warm starts on the loop's next turn, after the handlers are made.
  await new Promise((resolve) => setImmediate(resolve));
  expect(handlers.backgroundPending()).toBeGreaterThan(0);
  expect(fs.existsSync(prepared)).toBe(false);
  expect(await eventually(() => fs.existsSync(prepared))).toBe(true);
  expect(await eventually(() => handlers!.backgroundPending() === 0)).toBe(true);
});
