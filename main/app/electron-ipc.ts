import type { IpcMain } from 'electron';
import { UI_CHANNEL_NAMES } from '../../common/ui-contract.js';
import { ipcChannelOf } from '../../common/ui-ipc.js';
import type { IpcDispatcher } from './ipc-logic.js';

/**
 * The one helper every IPC handler is registered through (STYLE.md §One typed IPC contract): one
 * handler per channel of the contract, each passing the sender's frame to the dispatcher, which
 * refuses anything but our page and validates the payload with the contract's schema.
 * Types only from electron: the test registers it on a fake ipcMain.
 */
export function registerUiHandlers(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, dispatch: IpcDispatcher): () => void {
  for (const channel of UI_CHANNEL_NAMES) {
    ipcMain.handle(ipcChannelOf(channel), (event, payload: unknown) => {
      const frame = event.senderFrame;
      return dispatch(channel, { url: frame?.url, isMainFrame: frame !== null && frame.parent === null }, payload);
    });
  }
  return () => {
    for (const channel of UI_CHANNEL_NAMES) ipcMain.removeHandler(ipcChannelOf(channel));
  };
}
