import type { TrayLocale } from '../core/hosts/tray/tray-text.js';

/**
 * Electron shows nothing when the page's beforeunload refuses (unsaved typing, renderer
 * app/leave-guard.ts): the close is silently cancelled, so the window would not close and quitting
 * would hang. The window asks with a native box instead; these are its words and buttons.
 */
export interface UnloadPrompt {
  title: string;
  message: string;
  detail: string;
  buttons: [leave: string, stay: string];
  /** Index of the button that closes anyway; the other (the default, and Escape) keeps the window. */
  leaveIndex: 0;
  stayIndex: 1;
}

export function unloadPrompt(locale: TrayLocale): UnloadPrompt {
  if (locale === 'en') {
    return {
      title: 'Kioku',
      message: 'You have unsaved changes',
      detail: 'What you typed has not been written to the file. Close the window anyway?',
      buttons: ['Close without saving', 'Stay'],
      leaveIndex: 0,
      stayIndex: 1,
    };
  }
  return {
    title: '記憶 Kioku',
    message: '還有沒儲存的修改',
    detail: '剛才打的內容還沒寫入檔案。仍要關閉視窗嗎？',
    buttons: ['關閉，不儲存', '留下'],
    leaveIndex: 0,
    stayIndex: 1,
  };
}

/** Whether the box's answer means "close anyway" (anything else, e.g. Escape, keeps the window). */
export function closesAnyway(prompt: UnloadPrompt, answer: number): boolean {
  return answer === prompt.leaveIndex;
}
