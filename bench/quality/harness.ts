import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { loadConfig } from '../../main/core/platform/config/config.js';
import { requestStatus } from '../../main/core/platform/ipc/ipc-client.js';
import { runNodeChild } from '../node-child.js';

/**
 * The quality bench's plumbing: a user's machine in a temp folder, Claude Code sessions played
 * through the shipped hook client, the `kioku` CLI and the daemon. It knows nothing of the product.
 * Design notes: docs/design-notes.md, "bench/quality/harness.ts".
 */

/** Something in the harness broke (not a product score): the bench exits non-zero. */
export class HarnessError extends Error {}

export type Mode = 'daemon' | 'file';

/** Local wall-clock time in the user's zone (TZ below), "2026-03-02T10:00:00". */
export type LocalTime = string;
export const ZONE = 'Asia/Taipei';
const ZONE_OFFSET = '+08:00'; // Taipei has no daylight saving time

export function instant(time: LocalTime): Date {
  return new Date(`${time}${ZONE_OFFSET}`);
}

/** time + minutes, as a local time again. */
export function addMinutes(time: LocalTime, minutes: number): LocalTime {
  const shifted = new Date(instant(time).getTime() + minutes * 60_000 + 8 * 3_600_000);
  return shifted.toISOString().slice(0, 19);
}

export function findRoot(from: string): string {
  let dir = from;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'hooks', 'kioku-hook.ts'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new HarnessError('quality bench: cannot find the Kioku source tree (hooks/kioku-hook.ts) above this file');
    dir = parent;
  }
}

/**
 * A private copy of the shipped build (dist/ and bin/kioku.js) under <repo>/.tmp/, taken once at
 * the start: other people rebuilding dist/ in the same checkout mid-run must not pull the files
 * from under a scenario. Under the repo, so Node still finds node_modules, package.json's
 * "type" and resources/ by walking up, exactly as from dist/.
 */
export async function snapshotBuild(repoRoot: string): Promise<string> {
  const entries = ['dist/hooks/kioku-hook.js', 'dist/main/cli/kioku.js', 'bin/kioku.js'];
  const deadline = Date.now() + 180_000;
  while (!entries.every((e) => fs.existsSync(path.join(repoRoot, e)))) {
    if (Date.now() > deadline) throw new HarnessError(`quality bench: ${entries.join(', ')} missing; run \`npm run build\``);
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // someone else's build is under way
  }
  fs.mkdirSync(path.join(repoRoot, '.tmp'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(repoRoot, '.tmp', 'quality-build-'));
  for (const sub of ['dist/hooks', 'dist/main', 'dist/common', 'bin']) {
    const from = path.join(repoRoot, sub);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(dir, sub), { recursive: true });
  }
  for (const e of entries)
    if (!fs.existsSync(path.join(dir, e)))
      throw new HarnessError(`quality bench: the build snapshot lacks ${e} (a rebuild was under way); run again`);
  return dir;
}

export interface ProcResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface HookCallRecord {
  event: string;
  at: LocalTime;
  session: string;
  stderr: string;
  ms: number;
}

export class QualityHome {
  readonly root: string;
  readonly home: string;
  readonly roleHome: string;
  readonly memoryHome: string;
  readonly hookClient: string;
  readonly cliEntry: string;
  /** Every hook run, for the results file (stderr is kept: a hook must not write there). */
  readonly hookCalls: HookCallRecord[] = [];
  private daemon: ChildProcess | undefined;
  private daemonErr = '';

  /** `build`: the folder holding the shipped build's `dist/` and `bin/` (a snapshot, see snapshotBuild). */
  constructor(
    readonly build: string,
    readonly label: string,
    readonly mode: Mode,
  ) {
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), `kq-${label}-`));
    this.home = path.join(this.root, 'home');
    this.roleHome = path.join(this.home, '.roles');
    this.memoryHome = path.join(this.home, '.memory');
    fs.mkdirSync(this.home, { recursive: true });
    this.hookClient = path.join(build, 'dist', 'hooks', 'kioku-hook.js');
    this.cliEntry = path.join(build, 'bin', 'kioku.js');
    for (const file of [this.hookClient, path.join(build, 'dist', 'main', 'cli', 'kioku.js')]) {
      if (!fs.existsSync(file)) throw new HarnessError(`quality bench: ${file} is missing; run \`npm run build\``);
    }
  }

  /** The environment every process of this user gets; KIOKU_NOW is the frozen clock. */
  env(now: LocalTime): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: this.home,
      LANG: 'C.UTF-8',
      TZ: ZONE,
      ROLE_HOME: this.roleHome,
      ROLE_MEMORY_HOME: this.memoryHome,
      XDG_RUNTIME_DIR: this.root,
      ROLE_CLI: 'local', // no LLM on this machine: the built-in planner and condenser
      KIOKU_NOW: now,
      KIOKU_NO_SCHEDULE: '1', // only the bench's nightly `kioku sleep` consolidates
    };
  }

  /** A project: a git repository the user works in (Claude Code's cwd). */
  repo(name: string): string {
    const dir = path.join(this.home, 'work', name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'README.md'), `# ${name}\n`);
    const git = spawnSync('git', ['init', '-q', dir], { encoding: 'utf8' });
    if (git.status !== 0) throw new HarnessError(`git init ${dir} failed: ${git.stderr}`);
    return dir;
  }

  /** `kioku <args>` as the user types it. A non-zero exit is returned, not thrown (sleep exits 1 when a role fails). */
  cli(args: string[], now: LocalTime, input?: string, cwd: string = this.home): ProcResult {
    const run = spawnSync(process.execPath, [this.cliEntry, ...args], {
      cwd,
      env: this.env(now),
      encoding: 'utf8',
      input: input ?? '',
      timeout: 120_000,
      killSignal: 'SIGKILL',
    });
    if (run.error || run.signal) throw new HarnessError(`kioku ${args.join(' ')}: ${run.error?.message ?? `killed by ${run.signal}`}`);
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  }

  cliOk(args: string[], now: LocalTime, input?: string, cwd?: string): string {
    const run = this.cli(args, now, input, cwd);
    if (run.code !== 0) throw new HarnessError(`kioku ${args.join(' ')} exited ${run.code}: ${run.stderr.trim().slice(0, 400)}`);
    return run.stdout;
  }

  /** One hook, exactly as Claude Code starts it: `node <client> <event> --assistant claude`, stdin = the payload. */
  async hook(event: string, payload: Record<string, unknown>, now: LocalTime): Promise<string> {
    const run = await runNodeChild([this.hookClient, event, '--assistant', 'claude'], JSON.stringify(payload), this.env(now));
    this.hookCalls.push({ event, at: now, session: String(payload.session_id), stderr: run.stderr, ms: Math.round(run.ms) });
    if (run.code !== 0 || run.signal)
      throw new HarnessError(`hook ${event} at ${now} exited ${run.code ?? run.signal}: ${run.stderr.trim().slice(0, 400)}`);
    return run.stdout;
  }

  // ── the daemon ────────────────────────────────────────────────────────────────────────────

  async startDaemon(now: LocalTime): Promise<void> {
    const child = spawn(process.execPath, [this.cliEntry, 'daemon'], { env: this.env(now), stdio: ['ignore', 'ignore', 'pipe'] });
    this.daemon = child;
    child.stderr!.on('data', (chunk: Buffer) => (this.daemonErr += chunk.toString()));
    await this.waitIdle(now, 60_000).catch((error: unknown) => {
      throw new HarnessError(`the daemon did not start: ${(error as Error).message}; its stderr: ${this.daemonErr.trim().slice(0, 400)}`);
    });
  }

  /** The daemon has nothing in hand: spooled and captured events all handled. No-op in file mode. */
  async waitIdle(now: LocalTime, timeoutMs = 60_000): Promise<void> {
    const daemon = this.daemon;
    if (!daemon) return;
    const config = loadConfig(this.env(now));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (daemon.exitCode !== null)
        throw new HarnessError(`the daemon exited (${daemon.exitCode}): ${this.daemonErr.trim().slice(0, 400)}`);
      const result = await requestStatus(config.paths, 2_000);
      if (result.ok && result.reply.status.pid === daemon.pid) {
        const { status } = result.reply;
        if (status.ready && status.spoolPending === 0 && !status.queue.busy) return;
      }
      if (Date.now() > deadline) throw new HarnessError(`timed out waiting for daemon ${daemon.pid} to be ready and idle`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stopDaemon(): Promise<void> {
    const daemon = this.daemon;
    if (!daemon) return;
    this.daemon = undefined;
    if (daemon.exitCode !== null)
      throw new HarnessError(`the daemon had already exited (${daemon.exitCode}): ${this.daemonErr.trim().slice(0, 400)}`);
    const exited = new Promise<void>((resolve) => daemon.on('exit', () => resolve()));
    daemon.kill('SIGTERM');
    const timer = setTimeout(() => daemon.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }

  killDaemon(): void {
    if (this.daemon && this.daemon.exitCode === null) this.daemon.kill('SIGKILL');
    this.daemon = undefined;
  }

  get daemonStderr(): string {
    return this.daemonErr;
  }

  cleanup(): void {
    this.killDaemon();
    fs.rmSync(this.root, { recursive: true, force: true });
  }

  // ── reading what is on disk ───────────────────────────────────────────────────────────────

  /** Every file under the two Kioku homes (state, spool, logs, index, archives included), gz opened. */
  allHomeFiles(): Array<{ file: string; text: string }> {
    const out: Array<{ file: string; text: string }> = [];
    const walk = (dir: string) => {
      if (!fs.existsSync(dir)) return;
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (entry.isFile()) {
          let data = fs.readFileSync(file);
          if (file.endsWith('.gz')) {
            try {
              data = zlib.gunzipSync(data);
            } catch {
              /* not gzip after all: searched as is */
            }
          }
          out.push({ file, text: data.toString('utf8') });
        }
      }
    };
    walk(this.roleHome);
    walk(this.memoryHome);
    return out;
  }

  /** A role's memory files as the assistant could read them: not archived, not the state. */
  memories(roleId: string, options: { includeInbox?: boolean } = {}): MemoryFile[] {
    const dir = path.join(this.memoryHome, roleId);
    const out: MemoryFile[] = [];
    if (!fs.existsSync(dir)) return out;
    for (const category of fs.readdirSync(dir)) {
      if (category === 'archive' || category.startsWith('.')) continue;
      if (category === 'inbox' && !options.includeInbox) continue;
      const sub = path.join(dir, category);
      if (!fs.statSync(sub).isDirectory()) continue;
      for (const name of fs.readdirSync(sub)) {
        if (!name.endsWith('.md')) continue;
        const file = path.join(sub, name);
        out.push(parseMemory(file, category, fs.readFileSync(file, 'utf8')));
      }
    }
    return out;
  }

  /** What forgetting archived (archive/forgotten/*.md.gz), opened: category 'forgotten'. */
  forgotten(roleId: string): MemoryFile[] {
    const dir = path.join(this.memoryHome, roleId, 'archive', 'forgotten');
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.gz'))
      .map((name) => {
        const file = path.join(dir, name);
        let text = '';
        try {
          text = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8');
        } catch {
          text = fs.readFileSync(file, 'utf8');
        }
        return parseMemory(file, 'forgotten', text);
      });
  }

  readRoleFile(roleId: string, name: string): string {
    const file = path.join(this.memoryHome, roleId, name);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  }
}

export interface MemoryFile {
  file: string;
  category: string;
  text: string;
  /** Top-level frontmatter scalars as written (strings; lists joined by ","). */
  fields: Record<string, string>;
}

function parseMemory(file: string, category: string, text: string): MemoryFile {
  const fields: Record<string, string> = {};
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (match) {
    let listKey: string | undefined;
    for (const line of match[1]!.split(/\r?\n/)) {
      const kv = /^([A-Za-z_]+):\s*(.*)$/.exec(line);
      if (kv) {
        listKey = kv[2] === '' ? kv[1] : undefined;
        fields[kv[1]!] = unquote(kv[2]!);
      } else if (listKey && /^\s*-\s*/.test(line)) {
        fields[listKey] = [fields[listKey], unquote(line.replace(/^\s*-\s*/, ''))].filter(Boolean).join(',');
      }
    }
  }
  return { file, category, text, fields };
}

function unquote(value: string): string {
  const v = value.trim();
  if ((v.startsWith("'") && v.endsWith("'")) || (v.startsWith('"') && v.endsWith('"'))) return v.slice(1, -1);
  if (v.startsWith('[') && v.endsWith(']'))
    return v
      .slice(1, -1)
      .split(',')
      .map((s) => unquote(s))
      .join(',');
  return v;
}

// ── Claude Code sessions ──────────────────────────────────────────────────────────────────────

/**
 * One Claude Code session in one project: the transcript JSONL grows turn by turn as Claude Code
 * writes it (ASSISTANTS.md §Transcripts: user line, then the assistant's reply streamed one
 * block per line sharing message.id), its mtime set to the turn's time, and the hooks fired in
 * Claude Code's order with its payload fields.
 */
export class ClaudeSession {
  readonly transcriptPath: string;
  private lines = 0;
  private lastUuid: string | null = null;
  private turns = 0;

  constructor(
    private readonly home: QualityHome,
    readonly cwd: string,
    readonly id: string,
  ) {
    const folder = cwd.replace(/[^A-Za-z0-9]/g, '-');
    this.transcriptPath = path.join(home.home, '.claude', 'projects', folder, `${id}.jsonl`);
  }

  private common(event: string): Record<string, unknown> {
    return { session_id: this.id, transcript_path: this.transcriptPath, cwd: this.cwd, hook_event_name: event, permission_mode: 'default' };
  }

  /** SessionStart; returns what Claude Code would inject (stdout). */
  start(now: LocalTime, source: 'startup' | 'resume' | 'clear' | 'compact' = 'startup'): Promise<string> {
    return this.home.hook('session-start', { ...this.common('SessionStart'), source, model: 'claude-sonnet-4-5' }, now);
  }

  private append(now: LocalTime, entry: Record<string, unknown>): void {
    fs.mkdirSync(path.dirname(this.transcriptPath), { recursive: true });
    this.lines += 1;
    const uuid = `${this.id}-${this.lines}`;
    const line = {
      parentUuid: this.lastUuid,
      isSidechain: false,
      userType: 'external',
      cwd: this.cwd,
      sessionId: this.id,
      version: '2.1.197',
      uuid,
      timestamp: instant(now).toISOString(),
      ...entry,
    };
    this.lastUuid = uuid;
    fs.appendFileSync(this.transcriptPath, `${JSON.stringify(line)}\n`);
    const at = instant(now);
    fs.utimesSync(this.transcriptPath, at, at);
  }

  /**
   * One turn: the prompt is written to the transcript and UserPromptSubmit fires; the reply is
   * streamed into the transcript (one line per text block) and Stop fires with
   * last_assistant_message. Returns UserPromptSubmit's stdout (a call by name injects there).
   */
  async turn(now: LocalTime, user: string, assistant: string | string[]): Promise<string> {
    this.turns += 1;
    this.append(now, { type: 'user', message: { role: 'user', content: user } });
    const injected = await this.home.hook('user-prompt-submit', { ...this.common('UserPromptSubmit'), prompt: user }, now);
    const replyAt = addMinutes(now, 1);
    const parts = Array.isArray(assistant) ? assistant : [assistant];
    const messageId = `msg_${this.id}_${this.turns}`;
    for (const text of parts) {
      this.append(replyAt, {
        type: 'assistant',
        message: { id: messageId, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }] },
      });
    }
    await this.home.hook('stop', { ...this.common('Stop'), stop_hook_active: false, last_assistant_message: parts.join('\n\n') }, replyAt);
    return injected;
  }

  async end(now: LocalTime): Promise<void> {
    await this.home.hook('session-end', { ...this.common('SessionEnd'), reason: 'prompt_input_exit' }, now);
  }
}
