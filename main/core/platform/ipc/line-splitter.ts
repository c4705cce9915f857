/**
 * Splits a byte stream into newline-terminated lines with a hard size limit, for both ends of
 * the socket. Works on bytes, not strings, so a multi-byte character split across two chunks is
 * decoded whole and the limit is the one the protocol states (MAX_LINE_BYTES).
 */
export interface SplitResult {
  lines: string[];
  /** A line grew past the limit before its newline came: stop reading this stream. */
  overflow: boolean;
}

export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): SplitResult {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) break;
      const piece = chunk.subarray(start, newline);
      if (this.size + piece.length > this.maxBytes) return { lines, overflow: true };
      const whole = this.size === 0 ? piece : Buffer.concat([...this.parts, piece]);
      this.parts = [];
      this.size = 0;
      // Tolerate CRLF from hand-written clients (e.g. `socat` on Windows); skip keep-alive blank lines.
      const text = whole.toString('utf8').replace(/\r$/, '');
      if (text.length > 0) lines.push(text);
      start = newline + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length > 0) {
      if (this.size + rest.length > this.maxBytes) return { lines, overflow: true };
      this.parts.push(rest);
      this.size += rest.length;
    }
    return { lines, overflow: false };
  }

  /** Bytes received after the last newline (a reply cut off mid-line). */
  get pendingBytes(): number {
    return this.size;
  }
}
