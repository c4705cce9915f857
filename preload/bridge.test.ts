import { describe, expect, it } from 'vitest';
import { UI_CHANNEL_NAMES, uiOk, type AppState } from '../common/ui-contract.js';
import { UI_IPC_EVENT_CHANNEL, ipcChannelOf } from '../common/ui-ipc.js';
import { createBridge, type IpcRendererLike } from './bridge.js';

type Listener = (event: unknown, ...args: unknown[]) => void;

function fakeIpcRenderer(answer: (channel: string, payload: unknown) => unknown = () => uiOk('fine')) {
  const invoked: [string, unknown][] = [];
  const listeners = new Map<string, Set<Listener>>();
  const ipc: IpcRendererLike = {
    invoke: async (channel, ...args) => {
      invoked.push([channel, args[0]]);
      return answer(channel, args[0]);
    },
    on: (channel, listener) => listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener)),
    removeListener: (channel, listener) => listeners.get(channel)?.delete(listener),
  };
  const emit = (message: unknown) =>
    [...(listeners.get(UI_IPC_EVENT_CHANNEL) ?? [])].forEach((l) => l({ sender: 'the raw IPC event' }, message));
  return { ipc, invoked, emit, listenerCount: () => listeners.get(UI_IPC_EVENT_CHANNEL)?.size ?? 0 };
}

describe('the preload bridge (window.kioku)', () => {
  it('sends a contract channel to its own IPC channel with the request', async () => {
    const fake = fakeIpcRenderer();
    const bridge = createBridge(fake.ipc);
    expect(await bridge.invoke('roles.get', { id: 'ENGINEER01' })).toEqual(uiOk('fine'));
    expect(fake.invoked).toEqual([[ipcChannelOf('roles.get'), { id: 'ENGINEER01' }]]);
  });

  it('answers a channel outside the contract with an error, without reaching main', async () => {
    const fake = fakeIpcRenderer();
    const bridge = createBridge(fake.ipc);
    for (const name of ['shell.openExternal', '__proto__', 'constructor', 'toString', 'kioku:ui:roles.list']) {
      const result = await bridge.invoke(name as never, {} as never);
      expect(result.ok ? 'ok' : result.error.code).toBe('UNKNOWN_CHANNEL');
    }
    expect(fake.invoked).toEqual([]);
    // Every contract channel is allowed.
    for (const channel of UI_CHANNEL_NAMES) await bridge.invoke(channel, {} as never);
    expect(fake.invoked.map(([c]) => c)).toEqual(UI_CHANNEL_NAMES.map(ipcChannelOf));
  });

  it('turns a failed or malformed IPC answer into a result, never a throw', async () => {
    const throwing = createBridge(fakeIpcRenderer(() => Promise.reject(new Error('reply was never sent'))).ipc);
    const failed = await throwing.invoke('state.get', {});
    expect(failed.ok ? 'ok' : failed.error).toMatchObject({ code: 'UNAVAILABLE', message: 'state.get failed: reply was never sent' });
    const odd = await createBridge(fakeIpcRenderer(() => 'hello').ipc).invoke('state.get', {});
    expect(odd.ok ? 'ok' : odd.error.code).toBe('INTERNAL');
  });

  it('delivers pushed events by name with their data only, never the IPC event', () => {
    const fake = fakeIpcRenderer();
    const bridge = createBridge(fake.ipc);
    const heard: unknown[][] = [];
    const off = bridge.subscribe('memories.changed', (...args: unknown[]) => heard.push(args));
    bridge.subscribe('state.changed', () => heard.push(['state']));
    fake.emit({ event: 'memories.changed', data: { roles: ['A01'] } });
    fake.emit({ event: 'state.changed', data: {} as AppState });
    fake.emit({ event: 'not.an.event', data: 1 });
    fake.emit(null);
    expect(heard).toEqual([[{ roles: ['A01'] }], ['state']]);
    off();
    fake.emit({ event: 'memories.changed', data: { roles: ['B02'] } });
    expect(heard).toHaveLength(2);
  });

  it('listens on IPC only while someone subscribes, and refuses unknown event names', () => {
    const fake = fakeIpcRenderer();
    const bridge = createBridge(fake.ipc);
    expect(fake.listenerCount()).toBe(0);
    const a = bridge.subscribe('state.changed', () => undefined);
    const b = bridge.subscribe('memories.changed', () => undefined);
    expect(fake.listenerCount()).toBe(1);
    a();
    b();
    expect(fake.listenerCount()).toBe(0);
    expect(() => bridge.subscribe('shutdown' as never, () => undefined)).toThrow('no UI event');
  });
});
