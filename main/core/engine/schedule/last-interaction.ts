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
 * When the user last interacted with a role: the nap's idle clock (SLEEP-2) and `kioku status`'s
 * "last interaction".
 * Design notes: docs/design-notes.md, "main/core/engine/schedule/last-interaction.ts".
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
  return newest(
    names
      .filter((name) => name.endsWith('.md') && !name.startsWith('.') && !isTempFileName(name))
      .map((name) => fileTime(path.join(dir, name), now)),
  );
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
    return fs
      .readdirSync(categoryDir(config.paths.memoryHome, role, 'inbox'))
      .filter((name) => name.endsWith('.md') && !name.startsWith('.') && !isTempFileName(name)).length;
  } catch {
    return 0;
  }
}
