import fs from 'node:fs';
import path from 'node:path';
import { parseLooseDate } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { isTempFileName } from '../../platform/fs/atomic-write.js';
import { notAfter, writtenAt } from '../../platform/fs/clock-skew.js';
import { categoryDir } from '../../store/memory/memory-layout.js';
import { readMemoryState } from '../../store/memory/memory-state.js';
import { readLockFile, roleLockPath } from '../../store/sessions/role-lock-file.js';

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
 *
 * Every time is capped at now (issue 11, fs/clock-skew.ts). A time well ahead of the clock — a
 * synced folder carrying another machine's mtimes, a clock set back, KIOKU_NOW behind the files —
 * says nothing about when the user was last here: taken as it is (or as "now") it would keep the
 * role busy until the real clock caught up and outrank a real recent interaction. So such a time
 * is not counted; for a file its change time (ctime, stamped by this machine's clock whenever the
 * file or its mtime is written, a sync included) stands in when that one is not ahead too.
 */
export interface LastInteraction {
  at: Date;
  source: 'state.json' | 'inbox' | 'session' | 'transcript';
}

/** When the file was last written, by this machine's clock and no later than now (see above). */
function fileTime(file: string, now: number): Date | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return undefined;
  }
  const at = writtenAt(stat, now);
  return at === undefined ? undefined : new Date(at);
}

function newest(dates: Iterable<Date | undefined>): Date | undefined {
  let best: Date | undefined;
  for (const at of dates) if (at && (!best || at > best)) best = at;
  return best;
}

function newestInboxFile(config: KiokuConfig, role: string, now: number): Date | undefined {
  const dir = categoryDir(config.paths.memoryHome, role, 'inbox');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  return newest(names.filter((name) => name.endsWith('.md') && !name.startsWith('.') && !isTempFileName(name)).map((name) => fileTime(path.join(dir, name), now)));
}

function newestSessionFile(config: KiokuConfig, role: string, now: number): Date | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(config.paths.sessionsDir);
  } catch {
    return undefined;
  }
  const times: Array<Date | undefined> = [];
  for (const name of names) {
    if (!name.endsWith('.role')) continue;
    const file = path.join(config.paths.sessionsDir, name);
    try {
      if (fs.readFileSync(file, 'utf8').split(/\r?\n/, 1)[0]?.trim() !== role) continue;
    } catch {
      continue;
    }
    times.push(fileTime(file, now));
  }
  return newest(times);
}

function lockTranscript(config: KiokuConfig, role: string, now: number): Date | undefined {
  const lock = readLockFile(roleLockPath(config, role));
  return lock.kind === 'held' ? fileTime(lock.lock.transcriptPath, now) : undefined;
}

function stateActivity(config: KiokuConfig, role: string, now: number): Date | undefined {
  const at = notAfter(parseLooseDate(readMemoryState(config.paths.memoryHome, role).state.last_activity)?.getTime() ?? Number.NaN, now);
  return at === undefined ? undefined : new Date(at);
}

export function lastInteraction(config: KiokuConfig, role: string, now: Date = config.clock.now()): LastInteraction | undefined {
  const nowMs = now.getTime();
  const candidates: Array<[Date | undefined, LastInteraction['source']]> = [
    [stateActivity(config, role, nowMs), 'state.json'],
    [newestInboxFile(config, role, nowMs), 'inbox'],
    [newestSessionFile(config, role, nowMs), 'session'],
    [lockTranscript(config, role, nowMs), 'transcript'],
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
