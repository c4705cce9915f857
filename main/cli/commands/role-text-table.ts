/**
 * Plain-text tables that line up in a terminal with CJK text: East Asian wide and fullwidth
 * characters (and emoji) take two columns, combining marks and joiners none. Written for the
 * role commands; nothing in it is role-specific.
 */
const WIDE_RANGES: readonly [number, number][] = [
  [0x1100, 0x115f], // Hangul Jamo
  [0x2e80, 0x303e], // CJK radicals, punctuation
  [0x3041, 0x33ff], // kana, CJK symbols
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa000, 0xa4cf], // Yi
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe30, 0xfe4f], // CJK compatibility forms
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6],
  [0x2614, 0x2615], // ☕
  [0x26a1, 0x26a1], // ⚡
  [0x2705, 0x2705], // ✅
  [0x2728, 0x2728], // ✨
  [0x274c, 0x274c], // ❌
  [0x2b50, 0x2b50], // ⭐
  [0x1f300, 0x1f64f], // pictographs, emoticons
  [0x1f680, 0x1f6ff], // transport and map symbols
  [0x1f900, 0x1f9ff], // supplemental symbols and pictographs
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd], // CJK extensions B and later
];

function isWide(codePoint: number): boolean {
  return WIDE_RANGES.some(([from, to]) => codePoint >= from && codePoint <= to);
}

function isZeroWidth(codePoint: number): boolean {
  return (
    (codePoint >= 0x0300 && codePoint <= 0x036f) || // combining marks
    codePoint === 0x200b ||
    codePoint === 0x200d || // zero-width joiner
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) // variation selectors
  );
}

/** Terminal columns a text takes. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (isZeroWidth(codePoint)) continue;
    width += isWide(codePoint) ? 2 : 1;
  }
  return width;
}

/** One line of at most `max` columns: line breaks shown as ⏎, an ellipsis when cut. */
export function fitCell(text: string, max: number): string {
  const oneLine = text.replace(/\r?\n+/g, ' ⏎ ');
  if (displayWidth(oneLine) <= max) return oneLine;
  let out = '';
  for (const char of oneLine) {
    if (displayWidth(out + char) > max - 1) break;
    out += char;
  }
  return `${out}…`;
}

function padCell(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/**
 * Rows under a header, columns separated by two spaces, a dashed rule under the header.
 * `maxWidths[column]` caps a column (default 40; Infinity for paths, which must stay whole).
 */
export function renderTable(header: string[], rows: string[][], maxWidths: number[] = []): string {
  const cells = [header, ...rows].map((row) => row.map((cell, column) => fitCell(cell, maxWidths[column] ?? 40)));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => displayWidth(row[column] ?? ''))));
  const line = (row: string[]) =>
    row
      .map((cell, column) => padCell(cell, column === row.length - 1 ? 0 : widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(cells[0]!), line(widths.map((width) => '-'.repeat(width))), ...cells.slice(1).map(line)].join('\n');
}
