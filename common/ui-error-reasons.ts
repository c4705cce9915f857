/**
 * The UI's error codes: what exactly went wrong, finer than KiokuErrorCode, set by the UI
 * handlers (main/core/hosts/ui-api) so the renderer can say it in its own words (zh-TW/en) instead of
 * showing main's English, CLI-shaped message. `field` names the request field at fault.
 */
export const UI_ERROR_REASONS = [
  'role.exists',
  'role.idTaken',
  'role.nameAmbiguous',
  'role.notFound',
  'role.isActive',
  'role.changedSince',
  'role.locked',
  'archive.notFound',
  'archive.roleExists',
  'archive.confirmMismatch',
  'text.overLimit',
  'text.empty',
  'file.changedOnDisk',
  'project.notAbsolute',
  'project.missing',
  'project.notFolder',
  'projectMemory.notCreated',
  'settings.fromEnvironment',
  'emoji.badImage',
  'emoji.tooLarge',
  'emoji.notStaged',
] as const;

export type UiErrorReason = (typeof UI_ERROR_REASONS)[number];

/** Values a reason's text may name (a role ID, a display name, a file); never a sentence. */
export type UiErrorValues = Record<string, string | number>;

export function isUiErrorReason(value: unknown): value is UiErrorReason {
  return typeof value === 'string' && (UI_ERROR_REASONS as readonly string[]).includes(value);
}
