import fs from 'node:fs';

/**
 * Write to stdout (1) or stderr (2) straight to the file descriptor, never failing.
 *
 * Why not `process.stdout`: for a pipe (how assistants run hooks and `kioku memory recall`)
 * creating it loads node:net and the stream modules, 2–5 ms of a process that prints one answer
 * (X-PERF, issue 17). A reader that has gone away (EPIPE) or no descriptor at all is ignored:
 * nobody is left to read it, and a hook must never fail for it (HOOK-2).
 *
 * Only a pipe the reader made non-blocking that is full (EAGAIN) needs waiting for: the rest goes
 * to the stream, which waits for the reader and keeps the process alive until it has written it,
 * and so does everything written to that descriptor afterwards, so nothing overtakes it.
 */
const handedToStream = new Set<1 | 2>();

export function writeToFd(fd: 1 | 2, text: string): void {
  let bytes: Buffer | undefined;
  let written = 0;
  if (!handedToStream.has(fd)) {
    try {
      // The string itself, encoded by Node as it writes: no Buffer made here for the usual whole
      // write (about 0.05 ms of a SessionStart's 24 KB answer). Only a short write needs the bytes.
      written = fs.writeSync(fd, text);
      if (written >= Buffer.byteLength(text, 'utf8')) return;
      bytes = Buffer.from(text, 'utf8');
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return; // closed: nobody to tell
      handedToStream.add(fd);
    }
  }
  try {
    const stream = fd === 1 ? process.stdout : process.stderr;
    if (stream.listenerCount('error') === 0) stream.on('error', () => undefined);
    stream.write((bytes ?? Buffer.from(text, 'utf8')).subarray(written));
  } catch {
    /* closed */
  }
}

/** Whether some output was handed to a stream that may still be writing it (the process must not end yet). */
export function fdOutputPending(): boolean {
  return handedToStream.size > 0;
}
