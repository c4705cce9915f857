import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOOK_CLIENT_RELATIVE } from './hook-registrations.js';

/**
 * The root this module was installed with: the nearest folder above it that holds a
 * package.json. That is the repo for `npx kioku` (source under main/, or compiled under
 * dist/main/ — dist/ has no package.json) and the app folder of a packaged install.
 */
export function installRootFrom(moduleFile: string): string {
  let dir = path.dirname(moduleFile);
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // No package.json anywhere (a bundle copied on its own): the folder holding dist/, else here.
  const parts = path.dirname(moduleFile).split(path.sep);
  const dist = parts.lastIndexOf('dist');
  return dist > 0 ? parts.slice(0, dist).join(path.sep) : path.dirname(moduleFile);
}

/**
 * The hook client the assistants should run, as an absolute path. Inside a packaged app the
 * code lives in `app.asar`, which plain Node (what the assistant starts) cannot read;
 * electron-builder unpacks dist/hooks to `app.asar.unpacked`, so the path points there.
 */
export function defaultHookClientPath(moduleUrl: string = import.meta.url): string {
  const root = installRootFrom(fileURLToPath(moduleUrl));
  const unpacked = root.replace(/([\\/])app\.asar(?=$|[\\/])/, '$1app.asar.unpacked');
  return path.join(unpacked, ...HOOK_CLIENT_RELATIVE.split('/'));
}
