import type { zhTWManager } from '../zh-TW/manager.js';

export const enManager: Record<keyof typeof zhTWManager, string> = {
  'leave.title': 'You have unsaved changes',
  'leave.body': 'If you leave this page, what you typed is not written to the file and is not kept. Stay and keep editing?',
  'leave.bodyDraft':
    'What you typed is not written to the file yet. If you leave, it is kept in this tab and comes back when you return to this page. Stay and keep editing?',
  'leave.confirm': 'Leave without saving',
  'draft.restored': 'Restored what you typed last time (not written to the file yet).',
  'archived.title': 'Archived roles ({count})',
  'archived.help': 'An archived role and its memories are kept and can be moved back; deleting for good cannot be undone.',
  'archived.at': 'Archived {date}',
  'archived.withMemory': 'with memories',
  'archived.noMemory': 'no memory folder',
  'archived.idInUse': 'Another {id} exists; archive it first to move this one back.',
  'archived.restore': 'Move back',
  'archived.restoreLabel': 'Move {name} back',
  'archived.restored': 'Moved {name} back',
  'archived.purge': 'Delete for good',
  'archived.purgeLabel': 'Delete {name} for good',
  'archived.purged': 'Deleted the archive of {id} for good',
  'archived.purge.title': 'Delete “{name}” for good?',
  'archived.purge.body': 'The role files, emoji sheets and all memories are deleted. This cannot be undone.',
  'archived.purge.type': 'Type the role ID “{id}” to confirm:',
  'archived.purge.confirm': 'Delete for good',
  'emoji.staged': 'Loaded {file}. Adjust the grid, then press “Save” to write it; cancelling leaves nothing behind.',
  'emoji.status.staged': 'Not saved yet',
  'avatar.sheetAlt': '{name}’s emoji',
};
