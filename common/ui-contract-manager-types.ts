/** The data of the archived-role channels (roles.archived / roles.restore / roles.purge). */

export interface ArchivedRoleView {
  /** The archive's folder under `.archive/`: what restore and purge name. */
  folder: string;
  id: string;
  name: string;
  emoji: string;
  /** Local time of the archive, `yyyy-MM-ddTHH:mm:ss`. */
  archivedAt: string;
  hasMemory: boolean;
  /** A live role with this ID exists: restoring is refused until it is archived or renamed. */
  idInUse: boolean;
  problem: string | null;
}

export interface ArchivedRoleList {
  archived: ArchivedRoleView[];
}

export interface RoleRestored {
  id: string;
  name: string;
}

export interface ArchivePurged {
  id: string;
  folder: string;
}

/** Each role's emoji-sheet picture (its signed sheet's 開心 cell, small), for cards and the top bar; roles without one are left out. */
export interface RoleAvatars {
  avatars: { id: string; dataUrl: string }[];
}
