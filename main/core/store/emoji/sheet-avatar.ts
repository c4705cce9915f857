import fs from 'node:fs';
import path from 'node:path';
import { cellFileName, emojiAssetsDir, listSheetNames } from './emoji-sheet-files.js';

/**
 * The picture that stands for a role where its Unicode emoji used to: the 開心 (happy) cell of
 * the newest sheet its 簽名 emoji section points at, once that sheet has been cut. Only a
 * confirmed save writes cells and the section, so a picked-but-cancelled sheet never shows.
 * No sharp here: the tray and the app state read this on every refresh.
 */
export const AVATAR_MOOD = 'happy';

export function signedSheetCell(assetsDir: string, id: string, signature: string): string | undefined {
  const names = listSheetNames(assetsDir, id);
  for (const name of names.reverse()) {
    if (!signature.includes(name)) continue;
    const cell = path.join(emojiAssetsDir(assetsDir), cellFileName(name, AVATAR_MOOD));
    if (fs.existsSync(cell)) return cell;
  }
  return undefined;
}
