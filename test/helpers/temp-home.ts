import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type KiokuConfig } from '../../main/core/platform/config/config.js';

/** A fresh pair of homes for one test, with the env that points Kioku at them. */
export interface TempHome {
  root: string;
  roleHome: string;
  memoryHome: string;
  env: NodeJS.ProcessEnv;
  config(extra?: NodeJS.ProcessEnv): KiokuConfig;
  cleanup(): void;
}

export function makeTempHome(extraEnv: NodeJS.ProcessEnv = {}): TempHome {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-test-'));
  const roleHome = path.join(root, 'roles');
  const memoryHome = path.join(root, 'memory');
  fs.mkdirSync(roleHome, { recursive: true });
  fs.mkdirSync(memoryHome, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: root,
    LANG: 'C.UTF-8',
    TZ: process.env.TZ ?? 'Asia/Taipei',
    ROLE_HOME: roleHome,
    ROLE_MEMORY_HOME: memoryHome,
    XDG_RUNTIME_DIR: root,
    // A daemon started by a test must not consolidate behind its back (kioku daemon's scheduler);
    // a test of the scheduler passes KIOKU_NO_SCHEDULE: '' to have it.
    KIOKU_NO_SCHEDULE: '1',
    ...extraEnv,
  };
  return {
    root,
    roleHome,
    memoryHome,
    env,
    config: (extra = {}) => loadConfig({ ...env, ...extra }),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** Every file below a folder with its bytes, for "nothing was written" and round-trip checks. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else out[path.relative(dir, full).split(path.sep).join('/')] = fs.readFileSync(full).toString('base64');
    }
  };
  walk(dir);
  return out;
}
