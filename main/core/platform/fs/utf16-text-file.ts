import fs from 'node:fs';

/**
 * Large cache files that only Kioku reads (the prepared load, the parsed memories), kept as
 * UTF-16LE rather than UTF-8 (issue 17, X-PERF). Node 20 decodes UTF-8 that is mostly CJK at
 * about 9 ms per megabyte, character by character; UTF-16LE is the layout of V8's own two-byte
 * strings, so decoding it is a copy. The 2 MB prepared load of 10,000 memories, read by every
 * SessionStart without the daemon, went from 18 ms to 3 ms of decoding. Files a person may open
 * (memories, settings, logs) stay UTF-8.
 */

/** The text as the bytes of such a file. */
export function utf16Bytes(text: string): Buffer {
  return Buffer.from(text, 'utf16le');
}

/**
 * The text of such a file; undefined when it is missing, not a regular file, larger than
 * `maxBytes` or of an odd length (a UTF-8 file of an older format, or one cut short).
 */
export function readUtf16File(file: string, maxBytes: number): string | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat || !stat.isFile() || stat.size > maxBytes) return undefined;
  const bytes = fs.readFileSync(file);
  return bytes.length % 2 === 0 ? bytes.toString('utf16le') : undefined;
}
