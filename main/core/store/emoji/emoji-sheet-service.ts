import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { defaultEmojiGrid, emojiGridProblem, type EmojiGrid } from '../../../../common/emoji-grid.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { createFileExclusiveSync } from '../../platform/fs/atomic-write.js';
import { readRoleDefinition } from '../roles/role-repository.js';
import { cutCells, writeCells } from './crop-cells.js';
import { emojiAssetsDir, existingSheetPath, nextSheetName } from './emoji-sheet-files.js';
import { readGridFile, writeGridFile } from './grid-file.js';
import { readSheetImage, storedSheetSize, type SheetImage } from './sheet-image.js';
import {
  assertRoleFilesUnchanged,
  planSignature,
  signatureForSheet,
  writeSignature,
  type SignatureChange,
  type SignaturePlan,
} from './signature-write.js';

/**
 * The emoji mood sheet (ROLE-10), for the CLI and the UI alike:
 * store a sheet (a new version, never over an old one), cut it into nine moods by a grid, and
 * point the role's `## 簽名 emoji` section at it. Changing that section follows ROLE-5: a plan
 * shows old and new with a token, and nothing is written until the same token comes back.
 */

/** A sheet to work on: one already stored, or an image not stored yet (the CLI stores it only once confirmed). */
export type SheetSource = { kind: 'stored'; name: string } | { kind: 'new'; image: SheetImage };

export interface SheetSavePlan {
  id: string;
  sheetName: string;
  sheetPath: string;
  /** Whether the sheet is stored by this save (an image that is not on disk yet). */
  storesSheet: boolean;
  size: { width: number; height: number };
  grid: EmojiGrid;
  /** Cut the nine cells (and write the grid file) too. */
  cut: boolean;
  signature: SignaturePlan;
  change: SignatureChange;
  /** Show this and wait (ROLE-5): the save happens only when the same token comes back. */
  token: string;
  needsConfirm: boolean;
  /** Used at save time; kept out of what is shown. */
  image: SheetImage | undefined;
}

function ensureRole(config: KiokuConfig, id: string): void {
  readRoleDefinition(config.paths.roleHome, id); // NOT_FOUND / INVALID_FILE with the file named
}

/**
 * Store an image as the role's next sheet version. Used by the UI, which stores first and
 * cuts later; the name is claimed exclusively, so two imports at once get two versions.
 */
export async function importSheet(
  config: KiokuConfig,
  id: string,
  bytes: Buffer,
  label: string,
): Promise<{ name: string; path: string; width: number; height: number }> {
  ensureRole(config, id);
  const image = await readSheetImage(bytes, label);
  for (let attempt = 0; attempt < 20; attempt++) {
    const name = nextSheetName(config.paths.assetsDir, id);
    const file = path.join(emojiAssetsDir(config.paths.assetsDir), name);
    if (createFileExclusiveSync(file, image.png)) return { name, path: file, width: image.width, height: image.height };
  }
  throw new KiokuError('IO', `could not find a free sheet name for role ${id} in ${emojiAssetsDir(config.paths.assetsDir)}`, {
    hint: 'try again',
  });
}

/** The grid to show or cut with: the grid argument, else the sheet's grid file, else the default 3×3. */
export function gridFor(config: KiokuConfig, sheetName: string, size: { width: number; height: number }, given?: EmojiGrid): EmojiGrid {
  if (given) {
    const problem = emojiGridProblem(given, size.width, size.height);
    if (problem)
      throw new KiokuError('BAD_USAGE', `the grid does not fit ${sheetName} (${size.width}×${size.height}): ${problem}`, {
        hint: 'adjust the grid lines and try again',
      });
    return given;
  }
  return readGridFile(config.paths.assetsDir, sheetName, size) ?? defaultEmojiGrid(size.width, size.height);
}

function sheetDigest(source: SheetSource, sheetPath: string): string {
  const bytes = source.kind === 'new' ? source.image.png : fs.readFileSync(sheetPath);
  return createHash('sha256').update(bytes).digest('hex');
}

/** Work out what a save would do. Reads files only; never writes. */
export async function planSheetSave(
  config: KiokuConfig,
  id: string,
  source: SheetSource,
  options: { grid?: EmojiGrid; cut: boolean },
): Promise<SheetSavePlan> {
  ensureRole(config, id);
  const assets = config.paths.assetsDir;
  const sheetName = source.kind === 'stored' ? source.name : nextSheetName(assets, id);
  const sheetPath = source.kind === 'stored' ? existingSheetPath(assets, id, sheetName) : path.join(emojiAssetsDir(assets), sheetName);
  const size = source.kind === 'stored' ? await storedSheetSize(sheetPath) : { width: source.image.width, height: source.image.height };
  const grid = gridFor(config, sheetName, size, options.grid);
  const current = readRoleDefinition(config.paths.roleHome, id);
  const signature = planSignature(config, id, signatureForSheet(current, sheetPath, { home: config.env.HOME, cut: options.cut }));
  const token = createHash('sha256')
    .update(signature.roleToken)
    .update(`\0${sheetName}\0${sheetDigest(source, sheetPath)}\0${options.cut ? JSON.stringify(grid) : 'uncut'}`)
    .digest('hex')
    .slice(0, 10);
  return {
    id,
    sheetName,
    sheetPath,
    storesSheet: source.kind === 'new',
    size,
    grid,
    cut: options.cut,
    signature,
    change: signature.change,
    token,
    needsConfirm: signature.needsConfirm,
    image: source.kind === 'new' ? source.image : undefined,
  };
}

export interface SavedSheet {
  id: string;
  sheetName: string;
  sheetPath: string;
  storedSheet: boolean;
  gridFile: string | undefined;
  cells: string[];
  signatureChanged: boolean;
}

function tokenMismatch(plan: SheetSavePlan, given: string): KiokuError {
  return new KiokuError(
    'CONFIRM_NEEDED',
    `confirm token "${given}" does not match this emoji sheet change of role ${plan.id}; nothing was written`,
    {
      hint: 'the files, the image or the grid differ from when that token was shown; check the new table and confirm its token',
    },
  );
}

/**
 * Apply a plan: the token must be the plan's (undefined only when the plan needs no
 * confirmation). Everything is cut in memory first, so a bad grid or image writes nothing; then
 * the sheet (a new version, exclusively), the grid file, the nine cells and the role file, each
 * atomically.
 */
export async function saveSheet(config: KiokuConfig, plan: SheetSavePlan, confirmToken: string | undefined): Promise<SavedSheet> {
  if (confirmToken !== undefined && confirmToken.trim().toLowerCase() !== plan.token) throw tokenMismatch(plan, confirmToken);
  if (confirmToken === undefined && plan.needsConfirm) throw tokenMismatch(plan, '');
  assertRoleFilesUnchanged(plan.signature);
  const assets = config.paths.assetsDir;
  const cells = plan.cut ? await cutCells(plan.image ? plan.image.png : plan.sheetPath, plan.grid) : [];
  if (plan.image && !createFileExclusiveSync(plan.sheetPath, plan.image.png)) {
    throw new KiokuError('CONFIRM_NEEDED', `${plan.sheetPath} appeared since the change was shown (another import?); nothing was written`, {
      hint: 'run the command again without --confirm to see the new table',
    });
  }
  const gridFile = plan.cut ? writeGridFile(assets, plan.sheetName, plan.grid, plan.size) : undefined;
  const cellFiles = writeCells(assets, plan.sheetName, cells);
  if (plan.change.changed) writeSignature(config, plan.signature);
  return {
    id: plan.id,
    sheetName: plan.sheetName,
    sheetPath: plan.sheetPath,
    storedSheet: Boolean(plan.image),
    gridFile,
    cells: cellFiles,
    signatureChanged: plan.change.changed,
  };
}
