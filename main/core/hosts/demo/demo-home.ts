import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The throw-away home `kioku demo` runs in. Everything the demo writes — roles, memories, the
 * spool, logs, the fake Claude transcripts — lives below one mkdtemp folder, so the user's own
 * ~/.roles and ~/.memory are never read or touched.
 */
export interface DemoHome {
  root: string;
  roleHome: string;
  memoryHome: string;
  /** The "project" the sample session runs in (the payloads' `cwd`). */
  projectDir: string;
  /** Where Claude Code would keep this project's transcripts (ASSISTANTS.md §Transcripts). */
  transcriptDir: string;
  /** The environment every Kioku step of the demo runs with, in-process and in the hook client. */
  env: NodeJS.ProcessEnv;
}

/**
 * Variables carried over from the user's environment: what a child Node process needs to start
 * (PATH; SystemRoot and friends on Windows), the time zone and locale (so local times read as
 * the user's), and the two Kioku knobs that do not point anywhere. Every other ROLE_* / KIOKU_*
 * is dropped on purpose: a ROLE_SCOPE, ROLE_ENABLED=0 or KIOKU_HOOK_DISABLED=1 from the user's
 * shell would silently change the demo, and a ROLE_ERRLOG would write outside the demo home.
 */
const CARRIED = [
  'PATH',
  'Path',
  'SystemRoot',
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'TZ',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'KIOKU_NOW',
  'KIOKU_DEBUG',
];

/** Claude Code's folder name for a project: the cwd with every non-alphanumeric character as `-`. */
export function claudeProjectFolder(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

export function demoEnv(userEnv: NodeJS.ProcessEnv, root: string, roleHome: string, memoryHome: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of CARRIED) if (userEnv[name] !== undefined) env[name] = userEnv[name];
  return {
    ...env,
    HOME: root,
    USERPROFILE: root,
    ROLE_HOME: roleHome,
    ROLE_MEMORY_HOME: memoryHome,
    // Start == end means no sleep window (sleep-window.ts): the demo must load the persona at
    // any hour, or a user trying it at 23:00 would only see "the role is asleep".
    ROLE_SLEEP_START: '12:00',
    ROLE_SLEEP_END: '12:00',
    // The built-in condenser: deterministic, offline, free. An LLM CLI would make the demo slow,
    // cost the user tokens, and print different memories each run.
    ROLE_CLI: 'local',
  };
}

export function createDemoHome(userEnv: NodeJS.ProcessEnv, tmpRoot: string = os.tmpdir()): DemoHome {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(tmpRoot, 'kioku-demo-')));
  const roleHome = path.join(root, 'roles');
  const memoryHome = path.join(root, 'memory');
  const projectDir = path.join(root, 'project');
  const transcriptDir = path.join(root, '.claude', 'projects', claudeProjectFolder(projectDir));
  for (const dir of [roleHome, memoryHome, projectDir, transcriptDir]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return { root, roleHome, memoryHome, projectDir, transcriptDir, env: demoEnv(userEnv, root, roleHome, memoryHome) };
}

export function removeDemoHome(home: Pick<DemoHome, 'root'>): void {
  fs.rmSync(home.root, { recursive: true, force: true });
}
