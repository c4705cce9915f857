import sharp from 'sharp';

/** Nine colours far apart, one per mood cell (row by row), for "which cell is this" checks. */
export const SHEET_COLOURS: readonly [number, number, number][] = [
  [220, 40, 40], // red
  [240, 150, 20], // orange
  [230, 215, 30], // yellow
  [40, 170, 70], // green
  [20, 170, 170], // teal
  [40, 80, 220], // blue
  [140, 60, 200], // purple
  [230, 90, 170], // pink
  [110, 70, 30], // brown
];

export interface SheetSpec {
  /** Size of one cell in pixels (default 100). */
  cell?: number;
  /** White border around the grid (default 0). */
  margin?: number;
  /** White band between cells (default 0). */
  gutter?: number;
  format?: 'png' | 'jpeg' | 'webp' | 'gif';
  /** Draw a small face for each mood on its cell (a sheet that looks like one, for screenshots). */
  faces?: boolean;
}

const INK = '#3a2a1a';
/** One face per mood, in a 100×100 box; the face covers under a third of the cell. */
const FACE_PARTS: readonly string[] = [
  // happy: smiling eyes, open mouth
  `<path d="M35 47q5-6 10 0M55 47q5-6 10 0" fill="none" stroke="${INK}" stroke-width="2.5" stroke-linecap="round"/><path d="M38 57q12 16 24 0z" fill="#b3412f"/>`,
  // smile
  `<circle cx="40" cy="46" r="3.2" fill="${INK}"/><circle cx="60" cy="46" r="3.2" fill="${INK}"/><path d="M40 59q10 9 20 0" fill="none" stroke="${INK}" stroke-width="2.5" stroke-linecap="round"/>`,
  // relieved: closed eyes
  `<path d="M35 46q5 4 10 0M55 46q5 4 10 0M42 61q8 6 16 0" fill="none" stroke="${INK}" stroke-width="2.5" stroke-linecap="round"/>`,
  // worried: slanted brows, wavering mouth
  `<path d="M34 39l10-4M66 39l-10-4M40 65q10-8 20 0" fill="none" stroke="${INK}" stroke-width="2.5" stroke-linecap="round"/><circle cx="40" cy="47" r="3.2" fill="${INK}"/><circle cx="60" cy="47" r="3.2" fill="${INK}"/>`,
  // surprised: wide eyes, round mouth
  `<circle cx="40" cy="45" r="4.6" fill="${INK}"/><circle cx="60" cy="45" r="4.6" fill="${INK}"/><circle cx="50" cy="63" r="5.5" fill="${INK}"/>`,
  // shy: blush
  `<ellipse cx="35" cy="56" rx="5.5" ry="3.2" fill="#f39a9a"/><ellipse cx="65" cy="56" rx="5.5" ry="3.2" fill="#f39a9a"/><circle cx="40" cy="47" r="3" fill="${INK}"/><circle cx="60" cy="47" r="3" fill="${INK}"/><path d="M45 61q5 4 10 0" fill="none" stroke="${INK}" stroke-width="2.5" stroke-linecap="round"/>`,
  // crying: tears
  `<circle cx="40" cy="46" r="3.2" fill="${INK}"/><circle cx="60" cy="46" r="3.2" fill="${INK}"/><path d="M38 51q-4 8 0 11q4-3 0-11M62 51q-4 8 0 11q4-3 0-11" fill="#5aa9f0"/><path d="M41 67q9-8 18 0" fill="none" stroke="${INK}" stroke-width="2.5" stroke-linecap="round"/>`,
  // sleepy: closed eyes, a little z
  `<path d="M35 47h10M55 47h10M70 24h8l-8 9h8" fill="none" stroke="${INK}" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/><circle cx="50" cy="62" r="3.2" fill="${INK}"/>`,
  // expectant: sparkling eyes, open smile
  `<path d="M40 40l1.6 4.4 4.4 1.6-4.4 1.6-1.6 4.4-1.6-4.4-4.4-1.6 4.4-1.6zM60 40l1.6 4.4 4.4 1.6-4.4 1.6-1.6 4.4-1.6-4.4-4.4-1.6 4.4-1.6z" fill="${INK}"/><path d="M39 58q11 13 22 0z" fill="#b3412f"/>`,
];

function faceSvg(index: number, size: number): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">` +
      `<circle cx="50" cy="52" r="30" fill="#fff1d0" stroke="${INK}" stroke-width="2"/>${FACE_PARTS[index]}</svg>`,
  );
}

/** A 3×3 mood sheet made of nine solid colour cells (SHEET_COLOURS), on white. */
export async function makeSheet(spec: SheetSpec = {}): Promise<{ bytes: Buffer; width: number; height: number }> {
  const cell = spec.cell ?? 100;
  const margin = spec.margin ?? 0;
  const gutter = spec.gutter ?? 0;
  const side = margin * 2 + cell * 3 + gutter * 2;
  const tiles = await Promise.all(
    SHEET_COLOURS.map(async ([r, g, b], index) => ({
      input: await sharp({ create: { width: cell, height: cell, channels: 3, background: { r, g, b } } })
        .composite(spec.faces ? [{ input: faceSvg(index, cell) }] : [])
        .png()
        .toBuffer(),
      left: margin + (index % 3) * (cell + gutter),
      top: margin + Math.floor(index / 3) * (cell + gutter),
    })),
  );
  const base = sharp({ create: { width: side, height: side, channels: 3, background: { r: 255, g: 255, b: 255 } } }).composite(tiles);
  const format = spec.format ?? 'png';
  const bytes = await (
    format === 'png'
      ? base.png()
      : format === 'jpeg'
        ? base.jpeg({ quality: 95 })
        : format === 'webp'
          ? base.webp({ lossless: true })
          : base.gif()
  ).toBuffer();
  return { bytes, width: side, height: side };
}

/** The colour most of an image is (sharp's histogram peak), for checking a cut cell. */
export async function dominantColour(image: string | Buffer): Promise<[number, number, number]> {
  const { dominant } = await sharp(image).stats();
  return [dominant.r, dominant.g, dominant.b];
}

/** True when two colours are within `tolerance` on every channel (stats bins colours in steps of 16). */
export function sameColour(a: readonly number[], b: readonly number[], tolerance = 24): boolean {
  return a.every((value, index) => Math.abs(value - b[index]!) <= tolerance);
}
