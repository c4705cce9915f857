import type { SleepStateName, SleepStatus } from '../../../../common/hook-protocol.js';
import { trayText, type TrayLocale } from './tray-text.js';

/**
 * What the tray shows, as plain data (APP-1, SLEEP-7): computed from the sleep state and the
 * active role, drawn by whatever tray the host has (Electron's in main/app, a fake in tests).
 * STYLE.md §Testable shells: the logic lives here; the Electron part only copies it over.
 */
export type TrayIconName = SleepStateName;

export interface TrayRole {
  id: string;
  name: string;
  emoji: string;
  /** The role's emoji-sheet picture (a PNG file), for menus that can show an icon (sheet-avatar.ts). */
  sheetIcon?: string;
}

/** running: the scheduler runs; paused: the user paused it (persisted); off: this host runs none. */
export type ScheduleMode = 'running' | 'paused' | 'off';

export interface TrayInput {
  sleep: Pick<SleepStatus, 'state' | 'role' | 'lastRun'>;
  activeRole: TrayRole | null;
  schedule: ScheduleMode;
  /** A "sleep now"/"nap now" the user asked for has not finished yet. */
  manualRunPending: boolean;
  openAtLogin: boolean;
  locale: TrayLocale;
  /** The last sync through git on a synced home (absent: this home does not sync). */
  sync?: TraySync;
}

export interface TraySync {
  outcome: 'ok' | 'offline' | 'error';
  /** ISO time of the last attempt. */
  at: string;
  conflicts: number;
}

export type TrayAction = 'open' | 'sleepNow' | 'napNow' | 'toggleSchedule' | 'status' | 'toggleOpenAtLogin' | 'quit';

export type TrayMenuItem =
  | { kind: 'header'; label: string; icon?: string }
  | { kind: 'separator' }
  | { kind: 'action'; action: TrayAction; label: string; enabled: boolean; checked?: boolean };

export interface TrayView {
  icon: TrayIconName;
  tooltip: string;
  menu: TrayMenuItem[];
}

/** Windows cuts tray tooltips at 127 characters (NOTIFYICONDATA.szTip holds 128 with the NUL). */
export const TOOLTIP_MAX_CHARS = 127;

function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function roleLabel(role: TrayRole | null, noRole: string): string {
  if (!role) return noRole;
  const name = role.name.trim() || role.id;
  return role.emoji.trim() ? `${name} ${role.emoji.trim()}` : name;
}

/** The first failure of the last run, for the error state: what failed, in one short line. */
function lastFailure(sleep: TrayInput['sleep']): string | undefined {
  const failed = sleep.lastRun?.roles.find((r) => !r.ok);
  if (!failed) return undefined;
  return clip(`${failed.id}: ${(failed.error ?? '').split(/\r?\n/)[0] || '?'}`, 60);
}

/** The one status line: `西莉卡 ✨ · 清醒中`, plus what is being consolidated or what failed. */
export function trayStatusLine(input: TrayInput): string {
  const text = trayText(input.locale);
  const parts = [roleLabel(input.activeRole, text.noRole), text.states[input.sleep.state]];
  if ((input.sleep.state === 'consolidating' || input.sleep.state === 'napping') && input.sleep.role) {
    parts.push(text.consolidatingRole(input.sleep.role));
  }
  if (input.sleep.state === 'error') {
    const failure = lastFailure(input.sleep);
    if (failure) parts.push(text.lastRunFailed(failure));
  }
  if (input.schedule === 'paused') parts.push(text.schedulePaused);
  if (input.sync) {
    const hhmm = /T(\d{2}:\d{2})/.exec(input.sync.at)?.[1] ?? input.sync.at;
    parts.push(text.sync[input.sync.outcome](hhmm));
    if (input.sync.conflicts > 0) parts.push(text.syncConflicts(input.sync.conflicts));
  }
  return parts.join(' · ');
}

export function trayView(input: TrayInput): TrayView {
  const text = trayText(input.locale);
  const status = trayStatusLine(input);
  // A consolidation in hand (the scheduler's or one asked for) takes the role's memory lock; a
  // second one asked for now would only wait behind it, so both buttons rest until it is done.
  const busy = input.sleep.state === 'consolidating' || input.sleep.state === 'napping' || input.manualRunPending;
  const scheduleItem: TrayMenuItem =
    input.schedule === 'off'
      ? { kind: 'action', action: 'toggleSchedule', label: text.scheduleOffItem, enabled: false }
      : {
          kind: 'action',
          action: 'toggleSchedule',
          label: input.schedule === 'paused' ? text.resumeSchedule : text.pauseSchedule,
          enabled: true,
        };
  return {
    icon: input.sleep.state,
    tooltip: clip(`Kioku — ${status}`, TOOLTIP_MAX_CHARS),
    menu: [
      // Linux AppIndicator trays show no tooltip at all: the status line heads the menu instead.
      // The sheet's picture next to the role where the platform draws menu icons (the label keeps the Unicode emoji).
      { kind: 'header', label: clip(status, 80), ...(input.activeRole?.sheetIcon ? { icon: input.activeRole.sheetIcon } : {}) },
      { kind: 'separator' },
      { kind: 'action', action: 'open', label: text.open, enabled: true },
      { kind: 'action', action: 'sleepNow', label: text.sleepNow, enabled: !busy },
      { kind: 'action', action: 'napNow', label: text.napNow, enabled: !busy },
      scheduleItem,
      { kind: 'action', action: 'status', label: text.status, enabled: true },
      { kind: 'separator' },
      { kind: 'action', action: 'toggleOpenAtLogin', label: text.openAtLogin, enabled: true, checked: input.openAtLogin },
      { kind: 'separator' },
      { kind: 'action', action: 'quit', label: text.quit, enabled: true },
    ],
  };
}
