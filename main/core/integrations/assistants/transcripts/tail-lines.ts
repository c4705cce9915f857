import fs from 'node:fs';

export interface TailScanOptions {
  /** Bytes read per step (default 256 KiB). */
  chunkBytes?: number;
  /**
   * Never read more than this many bytes from the end (default 8 MiB). A transcript can be
   * 50 MB of tool output, and the dialog handoff wants only the last few turns; a session whose
   * last 8 MiB hold no dialog at all has nothing recent worth handing over.
   */
  maxScanBytes?: number;
  /**
   * Lines longer than this are skipped without being assembled (default 2 MiB): such a line is a
   * tool result or a pasted file, never a turn that fits a dialog budget of a few thousand
   * characters, and assembling it would cost memory for nothing.
   */
  maxLineBytes?: number;
  /**
   * A cheap look at a line's bytes before it is decoded; false skips it. Decoding and parsing
   * megabytes of tool output only to throw it away is most of the cost of a long session.
   */
  accept?: (line: Buffer) => boolean;
}

export interface TailScanResult {
  /** True when the scan reached the first byte of the file (nothing older was left unread). */
  reachedStart: boolean;
  /** True when the visitor asked to stop. */
  stopped: boolean;
}

const DEFAULTS = { chunkBytes: 256 * 1024, maxScanBytes: 8 * 1024 * 1024, maxLineBytes: 2 * 1024 * 1024 };

/**
 * Visit a file's lines from the last to the first, reading it backwards in chunks, until the
 * visitor returns false or the byte budget is spent. Splitting on the byte 0x0A is safe for
 * UTF-8 (no multi-byte sequence contains it), so lines are decoded only once they are whole.
 * A line still being written (no newline yet) is visited like any other: callers parse it and
 * skip what does not parse. `offset` is the byte where the line starts: who said a turn is told by
 * where it sits against the session's role history (sessions/role-history.ts). Throws the fs
 * error for a missing or unreadable file.
 */
export function scanLinesBackward(
  file: string,
  visit: (line: string, offset: number) => boolean | void,
  options: TailScanOptions = {},
): TailScanResult {
  // `??` per field: a caller passing `{ maxScanBytes: undefined }` means "the default".
  const chunkBytes = options.chunkBytes ?? DEFAULTS.chunkBytes;
  const maxScanBytes = options.maxScanBytes ?? DEFAULTS.maxScanBytes;
  const maxLineBytes = options.maxLineBytes ?? DEFAULTS.maxLineBytes;
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const floor = Math.max(0, size - maxScanBytes);
    let position = size;
    // The line being assembled, in file order, kept as pieces: concatenating one growing buffer
    // per chunk would copy a long line quadratically.
    let pieces: Buffer[] = [];
    let pieceBytes = 0;
    let oversized = false;

    const emit = (head: Buffer, offset: number): boolean => {
      const tooLong = oversized || pieceBytes + head.length > maxLineBytes;
      const bytes = tooLong ? undefined : pieces.length === 0 ? head : Buffer.concat([head, ...pieces]);
      pieces = [];
      pieceBytes = 0;
      oversized = false;
      if (!bytes || bytes.length === 0 || (options.accept && !options.accept(bytes))) return true;
      // CRLF files: drop the CR by length, not with a regex over a possibly huge line.
      const end = bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
      const line = bytes.toString('utf8', 0, end);
      return line.trim() === '' || visit(line, offset) !== false;
    };

    while (position > floor) {
      const length = Math.min(chunkBytes, position - floor);
      position -= length;
      const chunk = Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const read = fs.readSync(fd, chunk, filled, length - filled, position + filled);
        if (read === 0) break; // the file shrank under us: treat the rest as empty
        filled += read;
      }
      let end = filled;
      let newline = end > 0 ? chunk.lastIndexOf(0x0a, end - 1) : -1;
      while (newline >= 0) {
        if (!emit(chunk.subarray(newline + 1, end), position + newline + 1)) return { reachedStart: false, stopped: true };
        end = newline;
        newline = newline > 0 ? chunk.lastIndexOf(0x0a, newline - 1) : -1;
      }
      if (!oversized && pieceBytes + end <= maxLineBytes) {
        pieces.unshift(chunk.subarray(0, end));
        pieceBytes += end;
      } else {
        oversized = true;
        pieces = [];
        pieceBytes = 0;
      }
    }
    // The first line of the file has no newline before it; past the budget, the piece left over
    // is the end of a line whose start was never read, so it is dropped.
    if (floor > 0) return { reachedStart: false, stopped: false };
    if (!emit(Buffer.alloc(0), 0)) return { reachedStart: true, stopped: true };
    return { reachedStart: true, stopped: false };
  } finally {
    fs.closeSync(fd);
  }
}
