import type { SleepStateName } from '../../../../common/hook-protocol.js';

/**
 * The tray's words in the two UI languages (X-I18N). The state names match the renderer's
 * `sleep.*` messages (renderer/src/i18n), so the tray and the window never disagree.
 */
export type TrayLocale = 'zh-TW' | 'en';

export interface TrayText {
  states: Record<SleepStateName, string>;
  noRole: string;
  consolidatingRole: (role: string) => string;
  lastRunFailed: (detail: string) => string;
  schedulePaused: string;
  scheduleOff: string;
  open: string;
  sleepNow: string;
  napNow: string;
  pauseSchedule: string;
  resumeSchedule: string;
  scheduleOffItem: string;
  status: string;
  openAtLogin: string;
  quit: string;
}

const zhTW: TrayText = {
  states: { awake: '清醒中', asleep: '睡眠中', napping: '小睡中', consolidating: '整理記憶中', error: '發生錯誤' },
  noRole: '尚未選擇角色',
  consolidatingRole: (role) => `正在整理 ${role}`,
  lastRunFailed: (detail) => `上次整理失敗：${detail}`,
  schedulePaused: '排程已暫停',
  scheduleOff: '排程未啟用',
  open: '開啟 Kioku',
  sleepNow: '現在睡覺',
  napNow: '小睡一下',
  pauseSchedule: '暫停排程',
  resumeSchedule: '恢復排程',
  scheduleOffItem: '排程未啟用（KIOKU_NO_SCHEDULE）',
  status: '狀態…',
  openAtLogin: '登入時啟動',
  quit: '結束 Kioku',
};

const en: TrayText = {
  states: { awake: 'Awake', asleep: 'Asleep', napping: 'Napping', consolidating: 'Consolidating', error: 'Error' },
  noRole: 'No active role',
  consolidatingRole: (role) => `consolidating ${role}`,
  lastRunFailed: (detail) => `last run failed: ${detail}`,
  schedulePaused: 'schedule paused',
  scheduleOff: 'schedule off',
  open: 'Open Kioku',
  sleepNow: 'Sleep now',
  napNow: 'Nap now',
  pauseSchedule: 'Pause schedule',
  resumeSchedule: 'Resume schedule',
  scheduleOffItem: 'Schedule off (KIOKU_NO_SCHEDULE)',
  status: 'Status…',
  openAtLogin: 'Start at login',
  quit: 'Quit Kioku',
};

export function trayText(locale: TrayLocale): TrayText {
  return locale === 'en' ? en : zhTW;
}

/**
 * The UI language for a system locale (Electron's app.getLocale(), LANG): any Chinese, or none
 * known, → zh-TW (the users write Traditional Chinese, and it is the renderer's default; there is
 * no Simplified UI); any other language → English.
 */
export function trayLocaleFor(systemLocale: string | undefined): TrayLocale {
  const locale = (systemLocale ?? '').trim();
  if (locale === '' || /^(C|POSIX)(\.|$)/.test(locale) || /^zh([-_.@]|$)/i.test(locale)) return 'zh-TW';
  return 'en';
}
