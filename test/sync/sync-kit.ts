import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KiokuConfig } from '../../main/core/platform/config/config.js';
import { loadConfig } from '../../main/core/platform/config/config.js';
import { listMemoryFiles } from '../../main/core/store/memory/memory-layout.js';
import { writeMemory } from '../../main/core/store/memory/memory-writer.js';
import { driverScriptPath } from '../../main/core/engine/sync/sync-repo.js';
import { syncInit } from '../../main/core/engine/sync/sync-init.js';

/**
 * Several "machines" on one host (X-SYNC tests): each is a pair of homes with its own state dir
 * and machine name, all sharing one bare repository as their remote. Git never reads the user's
 * own configuration here, and every git child has a deadline (spawnSync timeouts in git.ts).
 */
export interface Machine {
  name: string;
  root: string;
  env: NodeJS.ProcessEnv;
  config(extra?: NodeJS.ProcessEnv): KiokuConfig;
}

export interface Cluster {
  root: string;
  remote: string;
  machine(name: string, extra?: NodeJS.ProcessEnv): Machine;
  cleanup(): void;
}

export const FROZEN_NOW = '2026-12-01T23:30:00+08:00';

export function requireBuiltDriver(): void {
  if (!fs.existsSync(driverScriptPath())) throw new Error(`${driverScriptPath()} is missing: run \`npm run build\` before the sync tests`);
}

export function makeCluster(): Cluster {
  requireBuiltDriver();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-sync-'));
  const remote = path.join(root, 'remote.git');
  const made = spawnSync('git', ['init', '-q', '--bare', remote], {
    timeout: 30_000,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
  if (made.status !== 0) throw new Error(`git init --bare failed: ${made.stderr}`);
  return {
    root,
    remote,
    machine(name, extra = {}) {
      const home = path.join(root, name);
      fs.mkdirSync(path.join(home, '.roles'), { recursive: true });
      fs.mkdirSync(path.join(home, '.memory'), { recursive: true });
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: home,
        LANG: 'C.UTF-8',
        TZ: process.env.TZ ?? 'Asia/Taipei',
        TMPDIR: os.tmpdir(),
        ROLE_HOME: path.join(home, '.roles'),
        ROLE_MEMORY_HOME: path.join(home, '.memory'),
        XDG_RUNTIME_DIR: home,
        KIOKU_NO_SCHEDULE: '1',
        KIOKU_NOW: FROZEN_NOW,
        KIOKU_MACHINE_NAME: name,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
        ROLE_CLI: 'local',
        ...extra,
      };
      return { name, root: home, env, config: (more = {}) => loadConfig({ ...env, ...more }, { stored: {} }) };
    },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

export async function initMachine(machine: Machine, remote: string): Promise<void> {
  await syncInit(machine.config(), { remote, approve: async () => true });
}

/** A role's definition files, as `kioku role create` writes them (enough for the role to be listed). */
export function writeRole(machine: Machine, id: string, name: string): void {
  const roleHome = machine.env.ROLE_HOME!;
  fs.writeFileSync(
    path.join(roleHome, `${id}.identity.md`),
    `---\nid: ${id}\nname: ${name}\nemoji: 🌙\naliases: []\ncreated: 2026-11-01\nupdated: 2026-11-01\n---\n\n# ${name}\n\n## 來源（source）\n測試\n\n## 關係定位（relationship）\n夥伴\n\n## 簽名 emoji\n🌙\n`,
  );
  fs.writeFileSync(
    path.join(roleHome, `${id}.soul.md`),
    `---\nid: ${id}\nupdated: 2026-11-01\n---\n\n## 本質（nature）\n溫和\n\n## 氛圍（vibe）\n安靜\n`,
  );
}

export async function remember(machine: Machine, role: string, category: 'inbox' | 'daily' | 'important', text: string): Promise<string> {
  const written = await writeMemory(machine.config(), role, { category, body: text, summary: text });
  return written.memory.id;
}

/** Every memory id of a role on a machine (file names without `.md`), sorted. */
export function memoryIds(machine: Machine, role: string): string[] {
  return listMemoryFiles(machine.env.ROLE_MEMORY_HOME!, role)
    .map((ref) => path.basename(ref.path, '.md'))
    .sort();
}

export function readText(file: string): string {
  return fs.readFileSync(file, 'utf8');
}
