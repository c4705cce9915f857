import type { zhTWErrors } from '../zh-TW/errors.js';

export const enErrors: Record<keyof typeof zhTWErrors, string> = {
  'error.reason.role.exists': 'There is already a role {id} ({name}). Edit it from its page, or use another name or prefix for a new role.',
  'error.reason.role.idTaken': 'The role ID {id} is taken; choose another ID or prefix.',
  'error.reason.role.nameAmbiguous': 'This name matches more than one role; choose another name.',
  'error.reason.role.notFound': 'Role {id} is not there; it may have been archived or renamed. Reload the role list.',
  'error.reason.role.isActive': '{id} is the active role and cannot be archived. Switch to another role first.',
  'error.reason.role.changedSince': 'The files of role {id} changed after you reviewed the change; nothing was written. Review it again.',
  'error.reason.role.locked': 'The memories of role {id} are being consolidated; try again when that is done.',
  'error.reason.archive.notFound': 'There is no archived role {id}.',
  'error.reason.archive.roleExists':
    'A role {id} already exists, so the archived one cannot be moved back. Archive or rename the current one first.',
  'error.reason.archive.confirmMismatch': 'The ID you typed is not the role to delete; nothing was deleted.',
  'error.reason.text.overLimit': 'The text is over the limit; the file was not changed. Shorten it and save again.',
  'error.reason.text.empty': 'The text is empty; nothing was written.',
  'error.reason.file.changedOnDisk':
    '{file} was changed elsewhere after the editor opened it; nothing was saved. Copy your text, reload, then apply your change again.',
  'error.reason.project.notAbsolute': 'Type the project folder as a full path, e.g. /home/you/project or ~/project.',
  'error.reason.project.missing': 'The folder {folder} does not exist; check the path.',
  'error.reason.project.notFolder': '{folder} is not a folder; choose the project folder, not MEMORY.md itself.',
  'error.reason.projectMemory.notCreated': 'This project has no MEMORY.md yet. Use "Create MEMORY.md" to make one.',
  'error.reason.settings.fromEnvironment':
    'This setting comes from an environment variable and cannot be changed here. Change it where it is set, then restart Kioku.',
  'error.reason.emoji.badImage': 'This image cannot be read; choose a PNG, JPEG or WebP image of the 3×3 mood sheet.',
  'error.reason.emoji.tooLarge': 'This image is too large; make it smaller and pick it again.',
  'error.reason.emoji.notStaged': 'The picked image is gone (Kioku may have restarted); pick the image again.',
};
