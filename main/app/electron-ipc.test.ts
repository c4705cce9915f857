import { describe, expect, it } from 'vitest';
import { UI_CHANNEL_NAMES, uiOk } from '../../common/ui-contract.js';
import { APP_ENTRY_URL, ipcChannelOf } from '../../common/ui-ipc.js';
import { registerUiHandlers } from './electron-ipc.js';
import type { IpcDispatcher, IpcSender } from './ipc-logic.js';
import { isAppUrl } from './ipc-logic.js';

type Handler = (event: unknown, ...args: unknown[]) => unknown;

/** ipcMain as far as the helper uses it. */
function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  return {
    handlers,
    handle(channel: string, handler: Handler) {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, handler);
    },
    removeHandler(channel: string) {
      handlers.delete(channel);
    },
  };
}

describe('IPC registration (STYLE.md §One typed IPC contract)', () => {
  it('registers exactly one handler per contract channel and removes them all again', () => {
    const ipc = fakeIpcMain();
    const dispose = registerUiHandlers(ipc as never, async () => uiOk(null));
    expect([...ipc.handlers.keys()].sort()).toEqual(UI_CHANNEL_NAMES.map(ipcChannelOf).sort());
    expect(UI_CHANNEL_NAMES.length).toBeGreaterThan(0);
    dispose();
    expect(ipc.handlers.size).toBe(0);
  });

  it('hands the dispatcher the channel, the sender frame (url, top or not) and the payload', async () => {
    const ipc = fakeIpcMain();
    const seen: [string, IpcSender, unknown][] = [];
    const dispatch: IpcDispatcher = async (channel, sender, payload) => {
      seen.push([channel, sender, payload]);
      return uiOk('answer');
    };
    registerUiHandlers(ipc as never, dispatch);
    const handler = ipc.handlers.get(ipcChannelOf('roles.get'))!;
    const top = { url: APP_ENTRY_URL, parent: null };
    expect(await handler({ senderFrame: top }, { id: 'ENGINEER01' })).toEqual(uiOk('answer'));
    await handler({ senderFrame: { url: APP_ENTRY_URL, parent: top } }, {});
    await handler({ senderFrame: null }, {});
    expect(seen).toEqual([
      ['roles.get', { url: APP_ENTRY_URL, isMainFrame: true }, { id: 'ENGINEER01' }],
      ['roles.get', { url: APP_ENTRY_URL, isMainFrame: false }, {}],
      ['roles.get', { url: undefined, isMainFrame: false }, {}],
    ]);
  });

  it('knows our page by scheme and host only', () => {
    expect([APP_ENTRY_URL, 'kioku://app/', 'kioku://APP/index.html#/status'].map(isAppUrl)).toEqual([true, true, true]);
    const others = [
      'file:///work/main/dist/renderer/index.html',
      'http://app/',
      'kioku://app.evil/',
      'kioku://evil/app',
      'kioku://user@app/',
      'kioku://app:99/',
      'kioku:app',
      '',
      undefined,
      'not a url',
    ];
    expect(others.map(isAppUrl)).toEqual(others.map(() => false));
  });
});
