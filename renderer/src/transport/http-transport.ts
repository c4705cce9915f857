import {
  UI_API_PREFIX,
  UI_EVENTS_PATH,
  UI_TOKEN_HEADER,
  isUiEventName,
  type UiChannel,
  type UiEventName,
  type UiEvents,
  type UiRequest,
  type UiResponse,
  type UiResult,
} from '../../../common/ui-contract.js';
import type { Transport } from './transport.js';

type Listener = (data: unknown) => void;

function isResult(value: unknown): value is UiResult<unknown> {
  if (!value || typeof value !== 'object') return false;
  const record = value as { ok?: unknown; error?: unknown };
  return record.ok === true || (record.ok === false && typeof record.error === 'object' && record.error !== null);
}

/**
 * The headless transport (X-HEADLESS): `POST /api/<channel>` with the token in a header, and one
 * WebSocket for events that reconnects on its own (the daemon may restart; the laptop may sleep).
 */
export function httpTransport(token: string, base: Location = window.location): Transport {
  const listeners = new Map<UiEventName, Set<Listener>>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  let socket: WebSocket | undefined;
  // Optimistic until a connection fails: no "disconnected" banner flashes while the first one opens.
  let connected = true;
  let retryMs = 500;
  let retryTimer: number | undefined;

  const setConnected = (value: boolean) => {
    if (connected === value) return;
    connected = value;
    for (const listener of connectionListeners) listener(value);
  };

  const open = () => {
    retryTimer = undefined;
    const scheme = base.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${base.host}${UI_EVENTS_PATH}?token=${encodeURIComponent(token)}`);
    socket = ws;
    ws.onopen = () => {
      retryMs = 500;
      setConnected(true);
    };
    ws.onmessage = (message) => {
      let parsed: { event?: unknown; data?: unknown };
      try {
        parsed = JSON.parse(String(message.data)) as typeof parsed;
      } catch {
        return;
      }
      if (!isUiEventName(parsed.event)) return;
      for (const listener of listeners.get(parsed.event) ?? []) listener(parsed.data);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = undefined;
      setConnected(false);
      if (listeners.size === 0) return;
      retryTimer = window.setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, 10_000);
    };
  };

  const ensureSocket = () => {
    if (!socket && retryTimer === undefined) open();
  };

  return {
    kind: 'http',
    async invoke<C extends UiChannel>(channel: C, request: UiRequest<C>): Promise<UiResult<UiResponse<C>>> {
      let response: Response;
      try {
        response = await fetch(`${UI_API_PREFIX}${channel}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [UI_TOKEN_HEADER]: token },
          body: JSON.stringify(request),
          cache: 'no-store',
        });
      } catch (error) {
        return { ok: false, error: { code: 'UNAVAILABLE', message: error instanceof Error ? error.message : String(error) } };
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        body = undefined;
      }
      if (isResult(body)) return body as UiResult<UiResponse<C>>;
      return { ok: false, error: { code: 'UNAVAILABLE', message: `HTTP ${response.status} ${response.statusText}` } };
    },
    subscribe<E extends UiEventName>(event: E, listener: (data: UiEvents[E]) => void) {
      const set = listeners.get(event) ?? new Set<Listener>();
      listeners.set(event, set);
      const wrapped: Listener = (data) => listener(data as UiEvents[E]);
      set.add(wrapped);
      ensureSocket();
      return () => {
        set.delete(wrapped);
        if (set.size === 0) listeners.delete(event);
      };
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      listener(connected);
      return () => connectionListeners.delete(listener);
    },
  };
}
