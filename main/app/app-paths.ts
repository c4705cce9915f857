import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KiokuError } from '../../common/errors.js';

/**
 * Kioku's package folder, found by walking up from this module to the package.json named
 * "kioku": the repository in development (dist/main/app/ → ../../..), `resources/app.asar` in an
 * installed app. Everything the shell loads (preload, icons, the UI) is found from it.
 */
export function packageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const name = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name;
      if (name === 'kioku') return dir;
    } catch {
      /* no package.json here, or not ours */
    }
    if (path.dirname(dir) === dir) break;
  }
  throw new KiokuError('NOT_FOUND', `cannot find Kioku's package.json above ${from}`, {
    hint: 'reinstall Kioku, or run `npm run build` in its folder',
  });
}

export interface AppPaths {
  root: string;
  /** Bundled by scripts/build.mjs (a sandboxed preload cannot load modules from disk). */
  preloadFile: string;
  resourcesDir: string;
  windowIcon: string;
}

export function appPaths(root: string = packageRoot()): AppPaths {
  const resourcesDir = path.join(root, 'resources');
  return {
    root,
    preloadFile: path.join(root, 'dist', 'preload', 'preload.cjs'),
    resourcesDir,
    windowIcon: path.join(resourcesDir, 'build', 'icon.png'),
  };
}
