import type { ArchivedRoleList, ArchivePurged, RoleRestored } from '../../../../common/ui-contract.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { listArchivedRoles, purgeArchivedRole, restoreArchivedRole } from '../../store/roles/role-archived.js';

/** The archived-role channels: the same core as `kioku role archived` / `role restore`. */

export function archivedRoles(config: KiokuConfig): ArchivedRoleList {
  return {
    archived: listArchivedRoles(config).map((entry) => ({
      folder: entry.folder,
      id: entry.id,
      name: entry.name,
      emoji: entry.emoji,
      archivedAt: entry.archivedAt,
      hasMemory: entry.memoryArchiveDir !== null,
      idInUse: entry.idInUse,
      problem: entry.problem ?? null,
    })),
  };
}

export function restoreRoleFromUi(config: KiokuConfig, folder: string): RoleRestored {
  const restored = restoreArchivedRole(config, folder);
  return { id: restored.id, name: restored.name };
}

export function purgeArchive(config: KiokuConfig, folder: string, confirmId: string): ArchivePurged {
  const purged = purgeArchivedRole(config, folder, confirmId);
  return { id: purged.id, folder };
}
