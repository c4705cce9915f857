import sharp from 'sharp';
import { KiokuError } from '../../../../common/errors.js';
import { EMOJI_SHEET_LIMITS } from '../../../../common/emoji-grid.js';

/**
 * Reading a sheet image the user gave (ROLE-10). sharp is native and heavy: this module is for
 * main only (the CLI, the daemon, the app), never the hook path or the renderer.
 */

export interface SheetImage {
  /** The format the bytes were in. */
  format: (typeof EMOJI_SHEET_LIMITS.formats)[number];
  width: number;
  height: number;
  /** What is stored: PNG bytes, upright. */
  png: Buffer;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;

/** Refuse a file by its size before reading it whole. */
export function checkSheetByteSize(bytes: number, label: string): void {
  if (bytes > EMOJI_SHEET_LIMITS.maxBytes) {
    throw new KiokuError('LIMIT_EXCEEDED', `${label} is ${mib(bytes)}; an emoji sheet may be at most ${mib(EMOJI_SHEET_LIMITS.maxBytes)}`, {
      hint: 'export the sheet smaller (a 3×3 sheet of about 1500 × 1500 px is plenty) and import it again',
    });
  }
  if (bytes === 0)
    throw new KiokuError('INVALID_FILE', `${label} is empty`, { hint: 'choose a PNG, JPEG or WebP image of the 3×3 mood sheet' });
}

/**
 * Check an image and make the PNG that is stored. PNG, JPEG and WebP only (what image tools
 * and generators produce); the size limits are read from the header before any pixel is decoded.
 * A PNG is stored byte for byte; JPEG and WebP are converted losslessly to PNG, turned upright
 * by their EXIF orientation as a browser shows them, so the grid drawn in the UI and the cut
 * made here see the same pixels. `label` names the file in every error.
 */
export async function readSheetImage(bytes: Buffer, label: string): Promise<SheetImage> {
  checkSheetByteSize(bytes.length, label);
  const accepted = EMOJI_SHEET_LIMITS.formats.join(', ').toUpperCase().replace('JPEG', 'JPEG (JPG)');
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new KiokuError('INVALID_FILE', `${label} is not an image Kioku can read (accepted: ${accepted})`, {
      hint: 'save the sheet as PNG and try again',
    });
  }
  const format = EMOJI_SHEET_LIMITS.formats.find((name) => name === meta.format);
  if (!format) {
    throw new KiokuError(
      'INVALID_FILE',
      `${label} is a ${String(meta.format ?? 'unknown').toUpperCase()} image; an emoji sheet must be ${accepted}`,
      {
        hint: 'convert it to PNG and import it again',
      },
    );
  }
  // EXIF orientations 5–8 swap width and height.
  const swapped = (meta.orientation ?? 1) >= 5;
  const width = (swapped ? meta.height : meta.width) ?? 0;
  const height = (swapped ? meta.width : meta.height) ?? 0;
  const { maxSide, maxPixels, minSide } = EMOJI_SHEET_LIMITS;
  if (width > maxSide || height > maxSide || width * height > maxPixels) {
    throw new KiokuError(
      'LIMIT_EXCEEDED',
      `${label} is ${width}×${height} px; an emoji sheet may be at most ${maxSide} px on a side and ${maxPixels / 1_000_000} megapixels`,
      {
        hint: 'scale the sheet down (about 1500 × 1500 px is plenty) and import it again',
      },
    );
  }
  if (width < minSide || height < minSide) {
    throw new KiokuError('INVALID_FILE', `${label} is only ${width}×${height} px; a 3×3 sheet needs at least ${minSide}×${minSide} px`, {
      hint: 'use the full-size sheet image',
    });
  }
  try {
    const upright = format === 'png' && (meta.orientation ?? 1) === 1;
    // A PNG kept as it is still gets decoded once here, so a damaged file is refused now, not at the cut.
    if (upright) await sharp(bytes).resize(32, 32, { fit: 'inside' }).png().toBuffer();
    const png = upright ? bytes : await sharp(bytes).rotate().png().toBuffer();
    return { format, width, height, png };
  } catch (error) {
    throw new KiokuError('INVALID_FILE', `${label} cannot be decoded: ${(error as Error).message}`, {
      hint: 'the file may be damaged; export the sheet again',
    });
  }
}

/** Width and height of a stored sheet (always PNG, upright). */
export async function storedSheetSize(file: string): Promise<{ width: number; height: number }> {
  try {
    const meta = await sharp(file).metadata();
    return { width: meta.width ?? 0, height: meta.height ?? 0 };
  } catch (error) {
    throw new KiokuError('INVALID_FILE', `${file} cannot be read as an image: ${(error as Error).message}`, {
      path: file,
      hint: 'the sheet file may be damaged; import the sheet image again',
    });
  }
}
