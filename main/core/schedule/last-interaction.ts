import fs from 'node:fs';
import path from 'node:path';
import { parseLooseDate } from '../config/clock.js';
import type { KiokuConfig } from '../config/config.js';
import { isTempFileName } from '../fs/atomic-write.js';
import { categoryDir } from '../memory/memory-layout.js';
import { readMemoryState } from '../memory/memory-state.js';
import { readLockFile, roleLockPath } from '../sessions/role-lock-file.js';

/**
 * When the user last interacted with a role — the nap's idle clock (SLEEP-2: "CLI 最後互動時間
 * 超過 45 分鐘") and `kioku status`'s "last interaction". The newest of:
 *
 * 1. state.json `last_activity`: written at every Stop (seed 000 §--nap: "Stop hook 記錄的最後互動
 *    時間"). The field, not the file's mtime: a consolidation rewrites state.json (last_sleep), and
 *    a nap must not count its own write as the user coming back.
 * 2. the newest inbox file's mtime: captures written by the daemon's queue, `memory remember`, or
 *    seed 000's own scripts, which may not touch state.json.
 * 3. `.sessions/*.role` files naming the role (a call by name, CALL-3).
 * 4. the role lock's transcript (LOCK-2): a session in the middle of a long turn has not reached
 *    Stop yet, but its transcript keeps growing.
 *
 * Undefined when none of them says anything (a role nobody has talked to).
 */
export interface LastInteraction {
  at: Date;
  source: 'state.json' | 'inbox' | 'session' | 'transcript';
}

function mtime(file: string): Date | undefined {
  try {
    return fs.statSync(file).mtime;
  } catch {
    return undefined;
  }
}

function newestInboxFile(config: KiokuConfig, role: string): Date | undefined {
  const dir = categoryDir(config.paths.memoryHome, role, 'inbox');
  let newest: Date | undefined;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!name.endsWith('.md') || name.startsWith('.') || isTempFileName(name)) continue;
    const at = mtime(path.join(dir, name));
    if (at && (!newest || at > newest)) newest = at;
  }
  return newest;
}

function newestSessionFile(config: KiokuConfig, role: string): Date | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(config.paths.sessionsDir);
  } catch {
    return undefined;
  }
  let newest: Date | undefined;
  for (const name of names) {
    if (!name.endsWith('.role')) continue;
    const file = path.join(config.paths.sessionsDir, name);
    try {
      if (fs.readFileSync(file, 'utf8').split(/\r?\n/, 1)[0]?.trim() !== role) continue;
    } catch {
      continue;
    }
    const at = mtime(file);
    if (at && (!newest || at > newest)) newest = at;
  }
  return newest;
}

function lockTranscript(config: KiokuConfig, role: string): Date | undefined {
  const lock = readLockFile(roleLockPath(config, role));
  return lock.kind === 'held' ? mtime(lock.lock.transcriptPath) : undefined;
}

export function lastInteraction(config: KiokuConfig, role: string): LastInteraction | undefined {
  const candidates: Array<[Date | undefined, LastInteraction['source']]> = [
    [parseLooseDate(readMemoryState(config.paths.memoryHome, role).state.last_activity), 'state.json'],
    [newestInboxFile(config, role), 'inbox'],
    [newestSessionFile(config, role), 'session'],
    [lockTranscript(config, role), 'transcript'],
  ];
  let best: LastInteraction | undefined;
  for (const [at, source] of candidates) if (at && (!best || at > best.at)) best = { at, source };
  return best;
}

/** Inbox items waiting for consolidation (files only; a corrupt one still waits). */
export function inboxCount(config: KiokuConfig, role: string): number {
  try {
    return fs.readdirSync(categoryDir(config.paths.memoryHome, role, 'inbox')).filter((name) => name.endsWith('.md') && !name.startsWith('.') && !isTempFileName(name)).length;
  } catch {
    return 0;
  }
}
