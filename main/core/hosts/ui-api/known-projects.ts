import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KnownProject } from '../../../../common/ui-contract-notes-types.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { PROJECT_MEMORY_FILE } from '../../store/notes/project-memory.js';
import { listLockedRoleIds, readLockFile, roleLockPath } from '../../store/sessions/role-lock-file.js';

/**
 * The project folders the picker of the project-memory editor offers (DSH-2): where the
 * assistants were seen working. Kioku records no cwd of its own, but the transcripts it already
 * knows of do: each role lock names its session's transcript, and Claude Code keeps one folder of
 * transcripts per project. Every JSONL line of those carries the session's `cwd` (Codex keeps it
 * in `payload.cwd`), so the first lines of a transcript name its folder. Best effort, read-only,
 * bounded: only existing folders are offered, and typing a path stays possible.
 */
const HEAD_BYTES = 64 * 1024;
const MAX_TRANSCRIPT_FOLDERS = 30;
const MAX_PROJECTS = 40;

function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

function readHead(file: string): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = fs.readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, read).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The session folder named in a transcript's first lines, or undefined. */
export function cwdOfTranscript(file: string): string | undefined {
  for (const line of readHead(file).split('\n')) {
    if (!line.includes('"cwd"')) continue;
    try {
      const value = JSON.parse(line) as { cwd?: unknown; payload?: { cwd?: unknown } };
      const cwd = typeof value.cwd === 'string' ? value.cwd : typeof value.payload?.cwd === 'string' ? value.payload.cwd : undefined;
      if (cwd && path.isAbsolute(cwd)) return cwd;
    } catch {
      // the last line of the head is usually cut off; other lines may be anything
    }
  }
  return undefined;
}

function claudeProjectsDir(env: NodeJS.ProcessEnv): string {
  const configDir = env.CLAUDE_CONFIG_DIR?.trim() || path.join(env.HOME || os.homedir(), '.claude');
  return path.join(configDir, 'projects');
}

/** The newest transcript of each Claude Code project folder, newest folders first. */
function recentClaudeTranscripts(env: NodeJS.ProcessEnv): { file: string; mtimeMs: number }[] {
  const root = claudeProjectsDir(env);
  let folders: string[];
  try {
    folders = fs.readdirSync(root);
  } catch {
    return [];
  }
  const newest: { file: string; mtimeMs: number }[] = [];
  for (const folder of folders) {
    const dir = path.join(root, folder);
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
    } catch {
      continue;
    }
    let best: { file: string; mtimeMs: number } | undefined;
    for (const name of names) {
      const stat = statOf(path.join(dir, name));
      if (stat?.isFile() && (!best || stat.mtimeMs > best.mtimeMs)) best = { file: path.join(dir, name), mtimeMs: stat.mtimeMs };
    }
    if (best) newest.push(best);
  }
  return newest.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, MAX_TRANSCRIPT_FOLDERS);
}

export function findKnownProjects(config: KiokuConfig, hostCwd: string = process.cwd()): KnownProject[] {
  const found = new Map<string, KnownProject>();
  const add = (dir: string | undefined, source: KnownProject['source'], lastMs: number | undefined) => {
    if (!dir) return;
    const folder = path.resolve(dir);
    if (!statOf(folder)?.isDirectory()) return;
    const lastSeen = lastMs === undefined ? null : new Date(lastMs).toISOString();
    const known = found.get(folder);
    if (known) {
      if (lastSeen && (!known.lastSeen || lastSeen > known.lastSeen)) known.lastSeen = lastSeen;
      return;
    }
    found.set(folder, { path: folder, hasMemory: Boolean(statOf(path.join(folder, PROJECT_MEMORY_FILE))?.isFile()), source, lastSeen });
  };
  for (const role of listLockedRoleIds(config)) {
    const lock = readLockFile(roleLockPath(config, role));
    if (lock.kind !== 'held') continue;
    add(cwdOfTranscript(lock.lock.transcriptPath), 'lock', statOf(lock.lock.transcriptPath)?.mtimeMs);
  }
  for (const transcript of recentClaudeTranscripts(config.env)) add(cwdOfTranscript(transcript.file), 'transcript', transcript.mtimeMs);
  // The folder the app or `kioku daemon --web` was started in, unless that is just the home or the root.
  const home = path.resolve(config.env.HOME || os.homedir());
  const cwd = path.resolve(hostCwd);
  if (cwd !== home && cwd !== path.parse(cwd).root) add(cwd, 'app', undefined);
  const byRecency = (a: KnownProject, b: KnownProject) =>
    (b.lastSeen ?? '').localeCompare(a.lastSeen ?? '') || a.path.localeCompare(b.path);
  return [...found.values()].sort(byRecency).slice(0, MAX_PROJECTS);
}
