import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { EMOJI_MOODS, EMOJI_MOOD_IDS } from '../../../../common/emoji-grid.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { confirmTokenFor, fingerprintRoleFiles } from '../roles/role-change-table.js';
import type { RoleDefinition } from '../roles/role-definition.js';
import { readRoleDefinition, roleFilePaths, type RoleFilePaths } from '../roles/role-repository.js';
import { serializeIdentity, serializeSoul } from '../roles/role-serialize.js';
import { cellFileName } from './emoji-sheet-files.js';

/**
 * Writing the role's `## 簽名 emoji` section once a sheet exists (ROLE-10,
 * the role skill's create mode, step 13). The Unicode emoji of the frontmatter stays as it is: it is the fallback.
 */

/** `~/…` when the file is under the user's home, as the role skill writes paths; else absolute. */
function displayPath(file: string, home: string | undefined): string {
  if (home && (file === home || file.startsWith(home.endsWith(path.sep) ? home : home + path.sep))) {
    return `~/${path.relative(home, file).split(path.sep).join('/')}`;
  }
  return file;
}

const rowText = [0, 1, 2].map((row) =>
  EMOJI_MOODS.slice(row * 3, row * 3 + 3)
    .map((mood) => mood.zh)
    .join('／'),
);

/**
 * The section text, in the role skill's wording (ROLE-10: "use <name>'s own mood emoji sheet first…");
 * when the sheet was cut, one more line names the nine files, so an assistant that can send an
 * image picks a single face without cutting anything.
 */
export function signatureForSheet(
  role: Pick<RoleDefinition, 'name' | 'emoji'>,
  sheetFile: string,
  options: { home?: string; cut: boolean },
): string {
  const sheet = displayPath(sheetFile, options.home);
  const lines = [
    `優先使用${role.name}專屬心情 emoji 圖表，而不是固定 Unicode emoji。當對話介面可插入圖片或連結時，依心情選用 \`${sheet}\` 中對應表情；純文字或不支援圖片時，用原本使用者輸入的 \`${role.emoji}\` 作為 fallback。`,
    '',
    `心情對應：第 1 列為${rowText[0]}；第 2 列為${rowText[1]}；第 3 列為${rowText[2]}。`,
  ];
  if (options.cut) {
    const pattern = displayPath(
      path.join(path.dirname(sheetFile), cellFileName(path.basename(sheetFile), 'happy').replace(/happy\.png$/, '{mood}.png')),
      options.home,
    );
    lines.push('', `已切成 9 張單獨 PNG：\`${pattern}\`，{mood} 依序為 ${EMOJI_MOOD_IDS.join('、')}。`);
  }
  return lines.join('\n');
}

export interface SignatureChange {
  field: 'signature';
  old: string;
  new: string;
  changed: boolean;
}

export interface SignaturePlan {
  current: RoleDefinition;
  role: RoleDefinition;
  paths: RoleFilePaths;
  change: SignatureChange;
  /** ROLE-5: an existing section would be replaced by other text, so the user confirms first. */
  needsConfirm: boolean;
  filesFingerprint: string;
  /** The role-file part of the confirm token (role-change-table.ts confirmTokenFor). */
  roleToken: string;
}

/** What writing `signature` into the role would change. Reads files only. */
export function planSignature(config: KiokuConfig, id: string, signature: string): SignaturePlan {
  const current = readRoleDefinition(config.paths.roleHome, id);
  const paths = roleFilePaths(config.paths.roleHome, id);
  const role: RoleDefinition = { ...current, signature, format: 'split', files: [paths.identity, paths.soul] };
  const filesFingerprint = fingerprintRoleFiles(paths);
  const changed = current.signature !== signature;
  return {
    current,
    role,
    paths,
    change: { field: 'signature', old: current.signature, new: signature, changed },
    needsConfirm: changed && current.signature.trim() !== '',
    filesFingerprint,
    roleToken: confirmTokenFor(filesFingerprint, role),
  };
}

/** Refuse when the role's files are no longer what the plan read (ROLE-5: the token is void). */
export function assertRoleFilesUnchanged(plan: SignaturePlan): void {
  if (fingerprintRoleFiles(plan.paths) !== plan.filesFingerprint) {
    throw new KiokuError(
      'CONFIRM_NEEDED',
      `the files of role ${plan.role.id} changed since the signature change was shown; nothing was written`,
      {
        hint: 'look at the change again and confirm its new token',
      },
    );
  }
}

/**
 * Write the planned section, only when the role's files are still what the plan read (else
 * nothing is written). A split role gets its identity file rewritten; a legacy single file is
 * written in the two-file format, which wins from then on (as `role new` does; the old file stays).
 */
export function writeSignature(config: KiokuConfig, plan: SignaturePlan): RoleDefinition {
  assertRoleFilesUnchanged(plan);
  const role: RoleDefinition = { ...plan.role, updated: formatLocalIso(config.clock.now()) };
  writeFileAtomicSync(plan.paths.identity, serializeIdentity(role));
  if (plan.current.format === 'legacy') writeFileAtomicSync(plan.paths.soul, serializeSoul(role));
  return role;
}
