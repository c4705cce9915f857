import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AssistantName } from '../../common/hook-events.js';
import type { DaemonStatus } from '../../common/hook-protocol.js';
import { loadConfig } from '../../main/core/platform/config/config.js';
import { requestStatus } from '../../main/core/platform/ipc/ipc-client.js';
import { guardChild, LONG_CHILD_DEADLINE_MS, SHORT_CHILD_DEADLINE_MS, stopChild } from '../helpers/child-guard.js';
import { KIOKU_BIN } from '../helpers/run-cli.js';

/**
 * A throw-away HOME with Kioku set up the way the README tells a user to: two roles made with
 * `kioku role new`, a memory each with `kioku memory remember`, and `kioku hooks install
 * --assistant <client>` into the client's own settings. Kioku keeps its default homes
 * (~/.roles, ~/.memory) under that HOME; nothing here writes Kioku's files behind its back
 * except its settings file, which the app's settings page writes in the same shape.
 */
export const ACTIVE = {
  id: 'ENGINEER01',
  name: '小豹',
  nature: '冷靜可靠的資深工程師，重證據、不打包票',
  vibe: '簡潔直白、偶爾吐槽',
  memory: '老大喜歡早上喝黑咖啡，不加糖',
  memoryCue: '黑咖啡',
};
export const CALLEE = {
  id: 'SCRIBE01',
  name: '小記',
  nature: '細心的記錄員，擅長整理會議與待辦',
  vibe: '溫和、條列清楚',
  memory: '老大的貓叫做麻糬',
  memoryCue: '麻糬',
};

/** Markers of text Kioku (or the client) injected, which must never be stored as the user's words. */
export const INJECTED_MARKERS = [
  '<hook_context>', // Gemini's wrapper around SessionStart context
  'hook success:', // Claude Code's wrapper around hook output
  '## 角色：', // the head of every role load
  '角色設定不是編造事實', // the shared behaviour rules (resources/agents/agents.zh-TW.md)
  ACTIVE.vibe,
  CALLEE.vibe,
];

export interface KiokuUserHome {
  root: string;
  project: string;
  roleHome: string;
  memoryHome: string;
  /** The environment every process of this "user" gets: Kioku's CLI, its daemon, the client. */
  env: NodeJS.ProcessEnv;
  kioku(args: string[]): { code: number; stdout: string; stderr: string };
  startDaemon(): Promise<void>;
  stopDaemon(): Promise<void>;
  /** The daemon has taken in everything the hooks handed it (its spool empty, its queue idle). */
  waitDrained(): Promise<void>;
  /** `- 使用者原話：…` lines of a role's inbox (the user's words as captured). */
  inboxUserWords(roleId: string): string[];
  /** Every inbox file of every role, whole. */
  inboxTexts(): Array<{ file: string; text: string }>;
  /** Every memory file of a role (all categories but the archive), whole, joined. */
  memoryText(roleId: string): string;
  /** `使用者原話：…` lines of every memory of a role (all categories but the archive). */
  memoryUserWords(roleId: string): string[];
  spoolFiles(): string[];
  /** Files under the role and memory homes whose bytes contain `needle` (SQLite index included). */
  filesContaining(needle: string): string[];
  cleanup(): Promise<void>;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A sleep window that cannot contain any moment of this test run, on the clock the children
 * read (they inherit this process's TZ): a role inside its window is not loaded at all, and the
 * suite must pass at any hour in any zone.
 */
function sleepWindowAwayFromNow(now = new Date()): { ROLE_SLEEP_START: string; ROLE_SLEEP_END: string } {
  const hour = now.getHours();
  return { ROLE_SLEEP_START: `${pad((hour + 12) % 24)}:00`, ROLE_SLEEP_END: `${pad((hour + 13) % 24)}:00` };
}

export interface UserHomeOptions {
  /** false: no `kioku hooks install` (the Claude Code plugin brings its own hooks). */
  installHooks?: boolean;
}

export function makeKiokuUserHome(assistant: AssistantName, options: UserHomeOptions = {}): KiokuUserHome {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `kioku-clients-${assistant}-`));
  const project = path.join(root, 'projects', 'shop-api');
  fs.mkdirSync(project, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: root,
    USER: process.env.USER ?? 'kioku',
    LANG: 'C.UTF-8',
    ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
    // The daemon's socket goes here (paths.ts), so parallel homes never share one.
    XDG_RUNTIME_DIR: root,
    TMPDIR: path.join(root, 'tmp'),
    NO_COLOR: '1',
  };
  fs.mkdirSync(env.TMPDIR!, { recursive: true });
  const config = loadConfig(env);
  const { roleHome, memoryHome } = config.paths;

  const kioku = (args: string[]) => {
    const result = spawnSync(process.execPath, [KIOKU_BIN, ...args], {
      env,
      cwd: project,
      input: '',
      encoding: 'utf8',
      timeout: SHORT_CHILD_DEADLINE_MS,
      killSignal: 'SIGKILL',
    });
    return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
  };
  const must = (args: string[]) => {
    const result = kioku(args);
    if (result.code !== 0) throw new Error(`kioku ${args.join(' ')} exited ${result.code}: ${result.stderr}${result.stdout}`);
    return result;
  };

  for (const [prefix, role] of [
    ['ENGINEER', ACTIVE],
    ['SCRIBE', CALLEE],
  ] as const) {
    must([
      'role',
      'new',
      '--prefix',
      prefix,
      '--name',
      role.name,
      '--emoji',
      role === ACTIVE ? '🐆' : '📝',
      '--nature',
      role.nature,
      '--vibe',
      role.vibe,
    ]);
    must(['memory', 'remember', '--role', role.id, '--category', 'daily', '--text', role.memory]);
  }
  // ROLE_CLI=local: turns are condensed by Kioku's local condenser, never by a model CLI.
  fs.mkdirSync(path.dirname(config.paths.settingsFile), { recursive: true });
  fs.writeFileSync(config.paths.settingsFile, `${JSON.stringify({ ...sleepWindowAwayFromNow(), ROLE_CLI: 'local' }, null, 2)}\n`);
  // The client's folder, as after its first run; `hooks install` without --assistant installs
  // where such a folder exists, so the test says which.
  fs.mkdirSync(path.join(root, `.${assistant}`), { recursive: true });
  if (options.installHooks !== false) must(['hooks', 'install', '--assistant', assistant]);

  let daemon: ReturnType<typeof spawn> | undefined;
  let daemonLog = '';
  const endpoint = { socketPath: config.paths.socketPath, tokenFile: config.paths.tokenFile };
  const status = async (): Promise<DaemonStatus | undefined> => {
    const reply = await requestStatus(endpoint, 1_000);
    return reply.ok && reply.reply.status.pid === daemon?.pid ? reply.reply.status : undefined;
  };
  const waitFor = async (what: string, probe: () => Promise<boolean>, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; daemon output:\n${daemonLog}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const walk = (dir: string, out: string[] = []): string[] => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, out);
      else if (entry.isFile()) out.push(full);
    }
    return out;
  };
  const inboxFiles = (roleId: string) => walk(path.join(memoryHome, roleId, 'inbox')).filter((file) => file.endsWith('.md'));
  const memoryFiles = (roleId: string) =>
    walk(path.join(memoryHome, roleId)).filter((file) => file.endsWith('.md') && !file.includes(`${path.sep}archive${path.sep}`));
  const userWords = (files: string[]) =>
    files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => line.match(/^- 使用者原話：(.*)$/)?.[1])
        .filter((words): words is string => words !== undefined),
    );

  return {
    root,
    project,
    roleHome,
    memoryHome,
    env,
    kioku,
    async startDaemon() {
      // The daemon a headless user runs (README): `kioku daemon`, without its sleep schedule so
      // that no consolidation moves the inbox while a test reads it.
      daemonLog = '';
      daemon = guardChild(
        spawn(process.execPath, [KIOKU_BIN, 'daemon', '--no-schedule'], { env, cwd: project, stdio: ['ignore', 'pipe', 'pipe'] }),
        LONG_CHILD_DEADLINE_MS,
      );
      daemon.stdout!.on('data', (chunk: Buffer) => (daemonLog += chunk.toString()));
      daemon.stderr!.on('data', (chunk: Buffer) => (daemonLog += chunk.toString()));
      await waitFor('the daemon to say it is ready', async () => {
        if (daemon!.exitCode !== null) throw new Error(`kioku daemon exited ${daemon!.exitCode}:\n${daemonLog}`);
        return (await status())?.ready === true;
      });
    },
    async stopDaemon() {
      if (daemon) await stopChild(daemon);
      daemon = undefined;
    },
    async waitDrained() {
      await waitFor('the daemon to drain its spool and queue', async () => {
        const s = await status();
        return s !== undefined && s.ready && s.spoolPending === 0 && !s.queue.busy;
      });
    },
    inboxUserWords: (roleId) => userWords(inboxFiles(roleId)),
    memoryUserWords: (roleId) => userWords(memoryFiles(roleId)),
    inboxTexts: () =>
      [ACTIVE.id, CALLEE.id].flatMap((roleId) => inboxFiles(roleId).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }))),
    memoryText: (roleId) =>
      memoryFiles(roleId)
        .map((file) => fs.readFileSync(file, 'utf8'))
        .join('\n'),
    spoolFiles: () =>
      fs.existsSync(config.paths.spoolDir) ? fs.readdirSync(config.paths.spoolDir).filter((name) => name.endsWith('.json')) : [],
    filesContaining: (needle) => {
      const bytes = Buffer.from(needle, 'utf8');
      return [...walk(roleHome), ...walk(memoryHome)]
        .filter((file) => fs.readFileSync(file).includes(bytes))
        .map((file) => path.relative(root, file));
    },
    async cleanup() {
      if (daemon) await stopChild(daemon);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
