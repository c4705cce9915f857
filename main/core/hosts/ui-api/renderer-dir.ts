import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the built UI is: `<package root>/dist/renderer` (vite.config.ts). Found by walking up
 * from this module to Kioku's package.json, so it works from dist/ (what ships), from a test
 * bundle under .tmp/, and from an installed copy alike. Undefined when there is no build; the
 * server then answers the page with how to build it.
 */
export function findRendererDir(from: string = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        const name = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
        if (name === 'kioku') {
          const renderer = path.join(dir, 'dist', 'renderer');
          return fs.existsSync(path.join(renderer, 'index.html')) ? renderer : undefined;
        }
      } catch {
        /* not ours; keep walking */
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
