import { zhTWCore } from './zh-TW/core.js';
import { zhTWRoles } from './zh-TW/roles.js';
import { zhTWMemories } from './zh-TW/memories.js';
import { zhTWNotes } from './zh-TW/notes.js';
import { zhTWOperations } from './zh-TW/operations.js';
import { zhTWErrors } from './zh-TW/errors.js';
import { zhTWManager } from './zh-TW/manager.js';
import { zhTWMemoryActions } from './zh-TW/memory-actions.js';
import { zhTWInsight } from './zh-TW/insight.js';

/**
 * 繁體中文（台灣）: the default language and the source of the message keys (X-I18N). Every text
 * the UI shows is in one of the area files under zh-TW/ (en/ mirrors them); `{name}` marks a
 * value filled in at run time. Wording follows the role skill
 * (本質, 氛圍, 簽名 emoji, 關係定位, 別名; 封存 rather than 刪除, because nothing is destroyed).
 */
export const zhTW = {
  ...zhTWCore,
  ...zhTWRoles,
  ...zhTWMemories,
  ...zhTWNotes,
  ...zhTWOperations,
  ...zhTWErrors,
  ...zhTWManager,
  ...zhTWMemoryActions,
  ...zhTWInsight,
} as const;

export type MessageKey = keyof typeof zhTW;
