import fs from 'node:fs';
import type { Socket } from 'node:net';
import { loadNet } from '../main/core/platform/ipc/lazy-net.js';
import { MAX_STDIN_BYTES, STDIN_TIMEOUT_MS } from './hook-budgets.js';

/**
 * The assistant's hook JSON from fd 0, without `process.stdin` (X-PERF: one `read(2)` instead of
 * loading node:net); a socket takes over only for a large, slow or never-closed stdin.
 * Design notes: docs/design-notes.md, "hooks/hook-stdin.ts".
 */
export function readHookStdin(fd = 0, start: StdinStart = startHookStdin(fd)): Promise<string> {
  return 'text' in start ? Promise.resolve(start.text) : readRest(fd, start.read);
}

/**
 * What one synchronous look at stdin found: all of it (`text`), or the chunks read so far of a
 * payload still arriving (`read`), the rest to come from the descriptor. Plain data: the launcher
 * takes the look and hands it to the client (hook-launcher.ts), each with its own copy of this file.
 */
export type StdinStart = { text: string } | { read: Buffer[] };

export function startHookStdin(fd = 0): StdinStart {
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(fd);
  } catch {
    return { text: '' };
  }
  if (stat.isFile()) return { text: readFileFd(fd, stat.size) };
  if (!stat.isFIFO() && !stat.isSocket()) return { text: '' };
  const first = readFirstChunk(fd);
  if (first === 'ended') return { text: '' };
  if (first === 'again') return { read: [] };
  const text = first.toString('utf8');
  return isWholeObject(text) ? { text } : { read: [first] };
}

/**
 * One synchronous read(2): what the assistant wrote before Node started, nearly always the whole
 * payload. Not on libuv's thread pool: starting the pool for one read cost a hook more than the
 * read (design notes). 'again': a descriptor left non-blocking had nothing yet.
 */
function readFirstChunk(fd: number): Buffer | 'again' | 'ended' {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  try {
    const bytes = fs.readSync(fd, buffer, 0, buffer.length, null);
    return bytes === 0 ? 'ended' : buffer.subarray(0, bytes);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EAGAIN' ? 'again' : 'ended';
  }
}

/** The rest through a socket, which waits without holding a thread, until the object is whole, stdin ends or the wait runs out. */
function readRest(fd: number, chunks: Buffer[]): Promise<string> {
  return new Promise((resolve) => {
    let size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    let done = false;
    let socket: Socket | undefined;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    // Stop reading early (too much, too late, an error): close the socket, if any, ourselves.
    const stop = () => {
      if (socket) {
        socket.removeAllListeners();
        socket.on('error', () => undefined);
        socket.destroy();
      }
      finish();
    };
    const timer = setTimeout(stop, STDIN_TIMEOUT_MS);
    const keep = (chunk: Buffer): boolean => {
      size += chunk.length;
      if (size > MAX_STDIN_BYTES) return false;
      chunks.push(chunk);
      return true;
    };
    try {
      socket = new (loadNet().Socket)({ fd, readable: true, writable: false });
    } catch {
      return finish();
    }
    socket.on('data', (chunk: Buffer) => {
      if (!keep(chunk) || isWholeObject(Buffer.concat(chunks).toString('utf8'))) stop();
    });
    // Closed by the assistant: a socket that cannot write ends itself (tearing it down by hand
    // cost about as long as reading it).
    socket.on('end', finish);
    socket.on('error', stop);
  });
}

/**
 * The payload is one JSON object: once it parses, nothing more is needed from stdin. Given the
 * text, not the chunks: the first read is nearly always all of it, and the first Buffer.concat of
 * a process is 0.15 ms of every hook (session 28), for a copy of one buffer.
 */
function isWholeObject(text: string): boolean {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith('}')) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

function readFileFd(fd: number, fileSize: number): string {
  const size = Math.min(fileSize, MAX_STDIN_BYTES);
  const buffer = Buffer.alloc(size);
  let read = 0;
  while (read < size) {
    const n = fs.readSync(fd, buffer, read, size - read, null);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read).toString('utf8');
}
