import fs from 'node:fs';
import path from 'node:path';
import { formatLocalDate, formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { isInSleepWindow } from '../schedule/sleep-window.js';

/**
 * When the scheduled morning brief runs (BRIEF-1, SLEEP-1: at the full hour the sleep window ends):
 * in the first hour after the sleep window ends on the user's clock, once per local day.
 * Design notes: docs/design-notes.md, "main/core/engine/brief/brief-due.ts".
 */
export type BriefDue = { due: true; day: string } | { due: false; reason: string };

const HOUR_MS = 60 * 60_000;

export const briefRecordPath = (config: KiokuConfig) => path.join(config.paths.stateDir, 'brief-last.json');

function lastBriefDay(config: KiokuConfig): string | undefined {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(briefRecordPath(config), 'utf8'));
    return value && typeof value === 'object' && typeof (value as { day?: unknown }).day === 'string'
      ? (value as { day: string }).day
      : undefined;
  } catch {
    return undefined;
  }
}

export function briefDue(config: KiokuConfig, now: Date = config.clock.now()): BriefDue {
  const { ROLE_SLEEP_START: start, ROLE_SLEEP_END: end, ROLE_BRIEF_ENABLED: enabled } = config.settings;
  if (!enabled) return { due: false, reason: 'the morning brief is off (ROLE_BRIEF_ENABLED=0)' };
  if (start === end)
    return { due: false, reason: `no sleep window (ROLE_SLEEP_START = ROLE_SLEEP_END = ${start}), so no window end to brief at` };
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
