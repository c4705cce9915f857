import type { zhTWManager } from '../zh-TW/manager.js';

export const enManager: Record<keyof typeof zhTWManager, string> = {
  'leave.title': 'You have unsaved changes',
  'leave.body': 'If you leave this page, what you typed is not written to the file and is not kept. Stay and keep editing?',
  'leave.confirm': 'Leave without saving',
};
