import type { MessageKey } from './messages-zh-TW.js';
import { enCore } from './en/core.js';
import { enRoles } from './en/roles.js';
import { enMemories } from './en/memories.js';
import { enNotes } from './en/notes.js';
import { enOperations } from './en/operations.js';
import { enErrors } from './en/errors.js';
import { enManager } from './en/manager.js';
import { enMemoryActions } from './en/memory-actions.js';
import { enInsight } from './en/insight.js';

/** English. Typed against the zh-TW catalogue, so a missing or extra key is a compile error. */
export const en: Record<MessageKey, string> = {
  ...enCore,
  ...enRoles,
  ...enMemories,
  ...enNotes,
  ...enOperations,
  ...enErrors,
  ...enManager,
  ...enMemoryActions,
  ...enInsight,
};
