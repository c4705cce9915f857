import { EMOJI_SHEET_LIMITS, type EmojiMoodId } from '../../../../../common/emoji-grid.js';
import type { MessageKey } from '../../../i18n/messages-zh-TW.js';

/**
 * The checks the picker makes before uploading anything (main checks again, from the bytes:
 * a file's type here is only what its name claims).
 */

const TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);
const EXTENSIONS = /\.(png|jpe?g|webp)$/i;

export type SheetFileProblem = { key: MessageKey; values: Record<string, string> } | undefined;

/** Megabytes as people read them: "2.4 MB", "850 KB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function checkSheetFile(file: { name: string; size: number; type: string }): SheetFileProblem {
  const name = file.name;
  if (!TYPES.has(file.type) && !EXTENSIONS.test(name)) return { key: 'emoji.pick.wrongType', values: { name } };
  if (file.size > EMOJI_SHEET_LIMITS.maxBytes) {
    return { key: 'emoji.pick.tooBig', values: { name, size: formatBytes(file.size), limit: formatBytes(EMOJI_SHEET_LIMITS.maxBytes) } };
  }
  return undefined;
}

/** The file's bytes as base64 (what `emoji.importSheet` carries). */
export function readFileAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const text = String(reader.result ?? '');
      resolve(text.slice(text.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('cannot read the file'));
    reader.readAsDataURL(file);
  });
}

export function moodKey(mood: EmojiMoodId): MessageKey {
  return `emoji.mood.${mood}`;
}
