import fs from 'node:fs';
import path from 'node:path';
import { formatLocalDate, formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { isInSleepWindow } from '../schedule/sleep-window.js';

/**
 * When the scheduled morning brief runs (BRIEF-1, seed 000 §作息: 睡眠時段結束的整點會執行晨間狀態
 * 檢查): in the first hour after the sleep window ends on the user's clock, once per local day.
 * The crontab fires `kioku brief --scheduled` every hour in cron's own zone (cron-entries.ts);
 * this decides on the user's clock, so a UTC cron serves a user in Taipei at 06:00 Taipei time.
 * The day it last ran is kept in `<state dir>/brief-last.json`, so a line that fires twice in the
 * hour (two crontabs, a manual run with --scheduled) does not brief twice.
 */
export type BriefDue = { due: true; day: string } | { due: false; reason: string };

const HOUR_MS = 60 * 60_000;

export const briefRecordPath = (config: KiokuConfig) => path.join(config.paths.stateDir, 'brief-last.json');

function lastBriefDay(config: KiokuConfig): string | undefined {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(briefRecordPath(config), 'utf8'));
    return value && typeof value === 'object' && typeof (value as { day?: unknown }).day === 'string' ? (value as { day: string }).day : undefined;
  } catch {
    return undefined;
  }
}

export function briefDue(config: KiokuConfig, now: Date = config.clock.now()): BriefDue {
  const { ROLE_SLEEP_START: start, ROLE_SLEEP_END: end, ROLE_BRIEF_ENABLED: enabled } = config.settings;
  if (!enabled) return { due: false, reason: 'the morning brief is off (ROLE_BRIEF_ENABLED=0)' };
  if (start === end) return { due: false, reason: `no sleep window (ROLE_SLEEP_START = ROLE_SLEEP_END = ${start}), so no window end to brief at` };
  if (isInSleepWindow(start, end, now) || !isInSleepWindow(start, end, new Date(now.getTime() - HOUR_MS))) {
    return { due: false, reason: `not the hour after the sleep window (${start}–${end}) ends on this clock (${formatLocalIso(now)})` };
  }
  const day = formatLocalDate(now);
  if (lastBriefDay(config) === day) return { due: false, reason: `already briefed today (${day})` };
  return { due: true, day };
}

/** Note that today's scheduled brief ran. */
export function recordBrief(config: KiokuConfig, day: string, now: Date = config.clock.now()): void {
  writeFileAtomicSync(briefRecordPath(config), `${JSON.stringify({ day, at: formatLocalIso(now) })}\n`);
}
