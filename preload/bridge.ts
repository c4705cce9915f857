import {
  isUiChannel,
  isUiEventName,
  uiErr,
  type KiokuBridge,
  type UiChannel,
  type UiEventMessage,
  type UiEventName,
  type UiEvents,
  type UiRequest,
  type UiResponse,
  type UiResult,
} from '../common/ui-contract.js';
import { UI_IPC_EVENT_CHANNEL, ipcChannelOf } from '../common/ui-ipc.js';

/**
 * The window's whole view of main (`window.kioku`): the contract's KiokuBridge and nothing more.
 * Built from the contract (STYLE.md §One typed IPC contract, Motrix's preload): a channel not in
 * UI_CHANNELS is answered with an error without reaching main, an unknown event name is refused,
 * and raw ipcRenderer — or the IPC event, which carries it — never crosses to the page.
 * Electron-free: preload.ts hands it ipcRenderer; tests hand it a fake.
 */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

function isResult(value: unknown): value is UiResult<unknown> {
  if (!value || typeof value !== 'object') return false;
  const record = value as { ok?: unknown; error?: unknown };
  return record.ok === true || (record.ok === false && typeof record.error === 'object' && record.error !== null);
}

export function createBridge(ipc: IpcRendererLike): KiokuBridge {
  const listeners = new Map<UiEventName, Set<(data: unknown) => void>>();
  let attached = false;
  const onEvent = (_event: unknown, message: unknown) => {
    const { event, data } = (message ?? {}) as Partial<UiEventMessage>;
    if (!isUiEventName(event)) return;
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(data);
      } catch {
        /* one broken view must not silence the others */
      }
    }
  };

  return {
    async invoke<C extends UiChannel>(channel: C, request: UiRequest<C>): Promise<UiResult<UiResponse<C>>> {
      if (typeof channel !== 'string' || !isUiChannel(channel)) {
        return uiErr(
          'UNKNOWN_CHANNEL',
          `no UI channel "${String(channel).slice(0, 80)}"`,
          'the UI and the app may be different versions; reload the window',
        );
      }
      try {
        const answer = await ipc.invoke(ipcChannelOf(channel), request);
        if (isResult(answer)) return answer as UiResult<UiResponse<C>>;
        return uiErr('INTERNAL', `${channel}: the app sent an answer that is not a result`);
      } catch (error) {
        // The handler threw (it should not), or the app is shutting down.
        return uiErr(
          'UNAVAILABLE',
          `${channel} failed: ${error instanceof Error ? error.message : String(error)}`,
          'try again; restart Kioku if it keeps failing',
        );
      }
    },
    subscribe<E extends UiEventName>(event: E, listener: (data: UiEvents[E]) => void) {
      if (!isUiEventName(event)) throw new Error(`no UI event "${String(event).slice(0, 80)}"`);
      if (typeof listener !== 'function') throw new Error('subscribe needs a listener function');
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const wrapped = (data: unknown) => listener(data as UiEvents[E]);
      set.add(wrapped);
      if (!attached) {
        ipc.on(UI_IPC_EVENT_CHANNEL, onEvent);
        attached = true;
      }
      return () => {
        set.delete(wrapped);
        if (set.size === 0) listeners.delete(event);
        if (listeners.size === 0 && attached) {
          ipc.removeListener(UI_IPC_EVENT_CHANNEL, onEvent);
          attached = false;
        }
      };
    },
  };
}
