import fs from 'node:fs';
import net from 'node:net';
import { MAX_STDIN_BYTES, STDIN_TIMEOUT_MS } from './hook-budgets.js';

/**
 * The assistant's hook JSON from fd 0, without `process.stdin`. Setting that stream up and
 * draining it cost the hook client more than everything else it does when the daemon answers
 * (X-PERF; measured side by side: `process.stdin` about 12 ms, fs.read on the thread pool about
 * 10 ms, a net.Socket on fd 0 about 4.5 ms — and node:net is loaded anyway to ask the daemon).
 * Assistants give a pipe or a socket pair; a file is read directly; a terminal or /dev/null gives
 * nothing. An assistant that never closes stdin must not hang the hook: after STDIN_TIMEOUT_MS
 * the socket is destroyed and what arrived is used. More than MAX_STDIN_BYTES is not a hook
 * payload: reading stops there.
 */
export function readHookStdin(fd = 0): Promise<string> {
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(fd);
  } catch {
    return Promise.resolve('');
  }
  if (stat.isFile()) return Promise.resolve(readFileFd(fd, stat.size));
  if (!stat.isFIFO() && !stat.isSocket()) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let socket: net.Socket;
    try {
      socket = new net.Socket({ fd, readable: true, writable: false });
    } catch {
      return resolve('');
    }
    const finish = () => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(finish, STDIN_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_STDIN_BYTES) return finish();
      chunks.push(chunk);
    });
    socket.on('end', finish);
    socket.on('error', finish);
  });
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
