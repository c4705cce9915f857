import { loadNet } from './lazy-net.js';
import type { LineConnectionEvents, LineConnection } from './line-connection.js';

/** A LineConnection over node:net: the public API, for wherever the raw pipe handle is not there. */
export function connectWithNet(socketPath: string, events: LineConnectionEvents): LineConnection {
  const socket = loadNet().createConnection(socketPath);
  let open = true;
  socket.on('connect', () => open && events.connect());
  socket.on('data', (chunk: Buffer) => open && events.data(chunk));
  socket.on('error', (error: NodeJS.ErrnoException) => open && events.error(error.code, error.message));
  socket.on('close', () => open && events.close());
  return {
    write: (text) => void socket.write(text),
    destroy: () => {
      open = false;
      socket.destroy();
    },
  };
}
