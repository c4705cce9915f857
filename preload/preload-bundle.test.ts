import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { UI_CHANNEL_NAMES, uiOk, type KiokuBridge } from '../common/ui-contract.js';
import { ipcChannelOf } from '../common/ui-ipc.js';

/**
 * The preload as it ships: bundled by scripts/build-preload.mjs (into .tmp, never dist/), then
 * run the way Electron's sandbox runs it — a CommonJS script whose `require` knows `electron`
 * and nothing else — with a fake contextBridge and ipcRenderer.
 */
const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, '.tmp', `preload-bundle-${process.pid}`);
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

function buildPreload(): string {
  const outfile = path.join(outDir, 'preload.cjs');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-preload.mjs'), outfile], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  expect(result.status, result.stderr).toBe(0);
  return fs.readFileSync(outfile, 'utf8');
}

describe('the bundled preload (dist/preload/preload.cjs)', () => {
  const code = buildPreload();

  it('requires nothing but electron (a sandboxed preload can load no files)', () => {
    const required = [...code.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
    expect([...new Set(required)]).toEqual(['electron']);
  });

  it('exposes exactly window.kioku with invoke and subscribe, wired to the contract channels', async () => {
    const exposed: Record<string, unknown> = {};
    const invoked: string[] = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
      ipcRenderer: {
        invoke: async (channel: string) => (invoked.push(channel), uiOk(channel)),
        on: () => undefined,
        removeListener: () => undefined,
      },
    };
    const requireInSandbox = (name: string) => {
      if (name === 'electron') return electron;
      throw new Error(`module not found: ${name}`);
    };
    const module = { exports: {} };
    vm.runInNewContext(`(function (require, module, exports) {${code}\n})`, {})(requireInSandbox, module, module.exports);
    expect(Object.keys(exposed)).toEqual(['kioku']);
    const bridge = exposed.kioku as KiokuBridge;
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'subscribe']);
    expect(await bridge.invoke('roles.list', {})).toEqual(uiOk(ipcChannelOf('roles.list')));
    const refused = await bridge.invoke('fs.readFile' as never, {} as never);
    expect(refused.ok).toBe(false);
    expect(invoked).toEqual([ipcChannelOf('roles.list')]);
    expect(UI_CHANNEL_NAMES).toContain('roles.list');
  });
});
