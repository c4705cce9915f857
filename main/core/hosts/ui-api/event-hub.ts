import type { WebSocket } from 'ws';
import type { UiEventMessage, UiEventName, UiEvents } from '../../../../common/ui-contract.js';

/**
 * The connected UI windows of the headless server and what they are sent. Each event is one JSON
 * text frame `{event, data}` (common/ui-contract.ts UiEventMessage). A dead connection is dropped
 * by a ping that gets no pong; nothing is queued for a window that is gone (it asks for the
 * whole state again when it reconnects).
 */
export interface EventHub {
  add(socket: WebSocket): void;
  send<E extends UiEventName>(event: E, data: UiEvents[E], to?: WebSocket): void;
  readonly size: number;
  /** Called when the first window connects and when the last one leaves. */
  onPresence(listener: (someoneListens: boolean) => void): void;
  closeAll(): void;
}

export function createEventHub(pingMs = 30_000): EventHub {
  const sockets = new Set<WebSocket>();
  const alive = new WeakMap<WebSocket, boolean>();
  const presence: ((someoneListens: boolean) => void)[] = [];
  let pinger: NodeJS.Timeout | undefined;

  const drop = (socket: WebSocket) => {
    if (!sockets.delete(socket)) return;
    if (sockets.size === 0) {
      if (pinger) clearInterval(pinger);
      pinger = undefined;
      for (const listener of presence) listener(false);
    }
  };

  const ping = () => {
    for (const socket of sockets) {
      if (alive.get(socket) === false) {
        socket.terminate();
        drop(socket);
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  };

  return {
    add(socket) {
      sockets.add(socket);
      alive.set(socket, true);
      socket.on('pong', () => alive.set(socket, true));
      socket.on('close', () => drop(socket));
      socket.on('error', () => drop(socket));
      // The UI only listens; anything it sends is ignored rather than parsed.
      socket.on('message', () => undefined);
      if (sockets.size === 1) {
        pinger = setInterval(ping, pingMs);
        pinger.unref();
        for (const listener of presence) listener(true);
      }
    },
    send(event, data, to) {
      const frame = JSON.stringify({ event, data } satisfies UiEventMessage);
      for (const socket of to ? [to] : sockets) {
        if (socket.readyState === socket.OPEN) socket.send(frame);
      }
    },
    get size() {
      return sockets.size;
    },
    onPresence(listener) {
      presence.push(listener);
    },
    closeAll() {
      for (const socket of [...sockets]) {
        socket.terminate();
        drop(socket);
      }
    },
  };
}
