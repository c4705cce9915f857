// The window's preload (bundled to dist/preload/preload.cjs by scripts/build.mjs: a sandboxed
// preload may require only a few Electron modules, so common/ is bundled in). It exposes the
// contract's bridge as `window.kioku` (renderer/src/transport/electron-transport.ts) — nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge.js';

const bridge = createBridge(ipcRenderer);
contextBridge.exposeInMainWorld('kioku', {
  invoke: (channel: Parameters<typeof bridge.invoke>[0], request: Parameters<typeof bridge.invoke>[1]) => bridge.invoke(channel, request),
  subscribe: (event: Parameters<typeof bridge.subscribe>[0], listener: Parameters<typeof bridge.subscribe>[1]) =>
    bridge.subscribe(event, listener),
});
