import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { KiokuError, isKiokuError } from '../../../../common/errors.js';
import { EMOJI_MOODS, defaultEmojiGrid, type EmojiGrid } from '../../../../common/emoji-grid.js';
import type {
  RoleAvatars,
  EmojiCellView,
  EmojiGridPreview,
  EmojiSavePlan,
  EmojiSheetSaved,
  EmojiSheetView,
  UiParsedRequest,
} from '../../../../common/ui-contract.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { cutCells, pngDataUrl } from '../../store/emoji/crop-cells.js';
import {
  cellFileName,
  emojiAssetsDir,
  existingSheetPath,
  gridFileName,
  listSheetNames,
  nextSheetName,
} from '../../store/emoji/emoji-sheet-files.js';
import { gridFor, planSheetSave, saveSheet, type SheetSavePlan, type SheetSource } from '../../store/emoji/emoji-sheet-service.js';
import type { SheetStaging, StagedSheet } from '../../store/emoji/emoji-staging.js';
import { readGridFile } from '../../store/emoji/grid-file.js';
import { checkSheetByteSize, readSheetImage, storedSheetSize } from '../../store/emoji/sheet-image.js';
import { tagErrorsAsync } from './ui-error-of.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';
import { listRoleSummaries } from '../../store/roles/role-summary.js';
import { signedSheetCell } from '../../store/emoji/sheet-avatar.js';

/**
 * The emoji sheet channels of the UI contract (ROLE-10, APP-2): the same core the
 * `kioku role emoji-sheet` command runs. The UI stores an image first (a new version, never an
 * overwrite), lets the user move the grid, then saves through ROLE-5's plan-and-token steps.
 * Images travel as data URLs: the sheet is at most EMOJI_SHEET_LIMITS.maxBytes, cells are small.
 */

const CELL_THUMBNAIL = 128;

/** The cut images of a sheet that exist, shrunk to thumbnails (a cell of a big sheet is megabytes). */
async function readCells(config: KiokuConfig, sheetName: string): Promise<EmojiCellView[]> {
  const dir = emojiAssetsDir(config.paths.assetsDir);
  const cells = await Promise.all(
    EMOJI_MOODS.map(async (mood): Promise<EmojiCellView | undefined> => {
      const file = path.join(dir, cellFileName(sheetName, mood.id));
      if (!fs.existsSync(file)) return undefined;
      try {
        const png = await sharp(file).resize(CELL_THUMBNAIL, CELL_THUMBNAIL, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
        return { mood: mood.id, file, dataUrl: pngDataUrl(png) };
      } catch {
        return undefined; // a damaged cell is left out; saving again rewrites it
      }
    }),
  );
  return cells.filter((cell): cell is EmojiCellView => cell !== undefined);
}

/** The saved grid; a broken grid file does not lock the editor out: the default grid and why. */
function savedGrid(
  config: KiokuConfig,
  sheetName: string,
  size: { width: number; height: number },
): { grid: EmojiGrid | undefined; problem: string | null } {
  try {
    return { grid: readGridFile(config.paths.assetsDir, sheetName, size), problem: null };
  } catch (error) {
    if (!isKiokuError(error)) throw error;
    return { grid: undefined, problem: error.message };
  }
}

/** A sheet named by the UI that is neither stored nor staged (the daemon restarted since the pick). */
function notStaged(id: string, sheet: string): KiokuError {
  return new KiokuError('NOT_FOUND', `no emoji sheet ${sheet} of role ${id} is stored or waiting to be saved`, {
    hint: 'pick the image again',
    reason: 'emoji.notStaged',
  });
}

function stagedOrStoredPath(
  config: KiokuConfig,
  staging: SheetStaging,
  id: string,
  sheet: string,
): { staged: StagedSheet } | { file: string } {
  const staged = staging.get(id, sheet);
  if (staged) return { staged };
  try {
    return { file: existingSheetPath(config.paths.assetsDir, id, sheet) };
  } catch (error) {
    if (isKiokuError(error) && error.code === 'NOT_FOUND') throw notStaged(id, sheet);
    throw error;
  }
}

export async function getEmojiSheet(config: KiokuConfig, staging: SheetStaging, id: string, sheet?: string): Promise<EmojiSheetView> {
  const role = readRoleDefinition(config.paths.roleHome, id);
  const names = listSheetNames(config.paths.assetsDir, id);
  const base = { id, name: role.name, emoji: role.emoji, signature: role.signature, versions: names.length };
  const staged = sheet === undefined ? undefined : staging.get(id, sheet);
  if (staged) {
    // Picked, not saved: shown from memory with the default grid; nothing of it is on disk yet.
    const { width, height, png } = staged.image;
    return {
      ...base,
      sheet: {
        name: staged.name,
        path: path.join(emojiAssetsDir(config.paths.assetsDir), staged.name),
        width,
        height,
        bytes: png.length,
        dataUrl: pngDataUrl(png),
        inSignature: false,
        staged: true,
      },
      grid: defaultEmojiGrid(width, height),
      gridSaved: false,
      gridProblem: null,
      cells: [],
    };
  }
  const sheetName = sheet ?? names[names.length - 1];
  if (!sheetName) return { ...base, sheet: null, grid: null, gridSaved: false, gridProblem: null, cells: [] };
  const file = existingSheetPath(config.paths.assetsDir, id, sheetName);
  const bytes = fs.readFileSync(file);
  const size = await storedSheetSize(file);
  const saved = savedGrid(config, sheetName, size);
  return {
    ...base,
    sheet: {
      name: sheetName,
      path: file,
      width: size.width,
      height: size.height,
      bytes: bytes.length,
      dataUrl: pngDataUrl(bytes),
      inSignature: role.signature.includes(sheetName),
    },
    grid: saved.grid ?? defaultEmojiGrid(size.width, size.height),
    gridSaved: saved.grid !== undefined,
    gridProblem: saved.problem,
    cells: await readCells(config, sheetName),
  };
}

/**
 * Read a picked image and stage it: checked and converted to PNG now (so a bad file is refused at
 * once), written only by emoji.saveSheet after the user confirms.
 */
export async function importEmojiSheet(
  config: KiokuConfig,
  staging: SheetStaging,
  request: UiParsedRequest<'emoji.importSheet'>,
): Promise<EmojiSheetView> {
  readRoleDefinition(config.paths.roleHome, request.id);
  const bytes = Buffer.from(request.data, 'base64');
  const label = `"${request.fileName || 'the image'}"`;
  const image = await tagErrorsAsync(
    async () => {
      checkSheetByteSize(bytes.length, label);
      return readSheetImage(bytes, label);
    },
    (error) =>
      error.code === 'LIMIT_EXCEEDED'
        ? { reason: 'emoji.tooLarge' }
        : error.code === 'INVALID_FILE'
          ? { reason: 'emoji.badImage' }
          : undefined,
  );
  const name = nextSheetName(config.paths.assetsDir, request.id);
  staging.put(request.id, { name, image });
  return getEmojiSheet(config, staging, request.id, name);
}

function planFor(
  config: KiokuConfig,
  staging: SheetStaging,
  request: { id: string; sheet: string; grid: EmojiGrid },
): Promise<SheetSavePlan> {
  const where = stagedOrStoredPath(config, staging, request.id, request.sheet);
  const source: SheetSource = 'staged' in where ? { kind: 'new', image: where.staged.image } : { kind: 'stored', name: request.sheet };
  return planSheetSave(config, request.id, source, { grid: request.grid, cut: true });
}

export async function previewEmojiGrid(
  config: KiokuConfig,
  staging: SheetStaging,
  request: UiParsedRequest<'emoji.previewGrid'>,
): Promise<EmojiGridPreview> {
  readRoleDefinition(config.paths.roleHome, request.id);
  const where = stagedOrStoredPath(config, staging, request.id, request.sheet);
  const source = 'staged' in where ? where.staged.image.png : where.file;
  const size =
    'staged' in where ? { width: where.staged.image.width, height: where.staged.image.height } : await storedSheetSize(where.file);
  const grid = gridFor(config, request.sheet, size, request.grid);
  const cells = await cutCells(source, grid, request.size ?? 128);
  return { cells: cells.map((cell) => ({ mood: cell.mood, rect: cell.rect, dataUrl: pngDataUrl(cell.png) })) };
}

export async function planEmojiSave(
  config: KiokuConfig,
  staging: SheetStaging,
  request: UiParsedRequest<'emoji.planSave'>,
): Promise<EmojiSavePlan> {
  const plan = await planFor(config, staging, request);
  const dir = emojiAssetsDir(config.paths.assetsDir);
  return {
    id: plan.id,
    sheet: plan.sheetName,
    change: plan.change,
    token: plan.token,
    files: [
      ...(plan.storesSheet ? [plan.sheetPath] : []),
      path.join(dir, gridFileName(plan.sheetName)),
      ...EMOJI_MOODS.map((mood) => path.join(dir, cellFileName(plan.sheetName, mood.id))),
      ...(plan.change.changed ? [plan.signature.paths.identity] : []),
    ],
  };
}

/** Re-plan from the same request and save only when the token still matches (ROLE-5). */
export async function saveEmojiSheet(
  config: KiokuConfig,
  staging: SheetStaging,
  request: UiParsedRequest<'emoji.saveSheet'>,
): Promise<EmojiSheetSaved> {
  const plan = await planFor(config, staging, request);
  const saved = await saveSheet(config, plan, request.token);
  if (plan.storesSheet) staging.drop(request.id);
  return {
    id: saved.id,
    sheet: saved.sheetName,
    gridFile: saved.gridFile ?? '',
    cells: saved.cells,
    signatureChanged: saved.signatureChanged,
    view: await getEmojiSheet(config, staging, request.id, saved.sheetName),
  };
}

const AVATAR_SIZE = 64;

/** The signed sheet's 開心 cell of every role that has one, shrunk for a card or the top bar. */
export async function roleAvatars(config: KiokuConfig): Promise<RoleAvatars> {
  const { roles } = listRoleSummaries(config);
  const avatars = await Promise.all(
    roles.map(async (summary) => {
      try {
        const role = readRoleDefinition(config.paths.roleHome, summary.id);
        const cell = signedSheetCell(config.paths.assetsDir, role.id, role.signature);
        if (!cell) return undefined;
        const png = await sharp(cell).resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
        return { id: role.id, dataUrl: pngDataUrl(png) };
      } catch {
        return undefined; // an unreadable role or cell keeps its Unicode emoji
      }
    }),
  );
  return { avatars: avatars.filter((avatar): avatar is { id: string; dataUrl: string } => avatar !== undefined) };
}
