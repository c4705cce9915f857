import fs from 'node:fs';
import path from 'node:path';

declare const __KIOKU_BUNDLED_SQLITE__: boolean | undefined;

/**
 * better-sqlite3 finds its compiled addon through the `bindings` package, which looks beside the
 * file that called it. The bundle of `memory recall` without the daemon (recall-direct-fast.js)
 * carries better-sqlite3's JavaScript, so that it loads with the bundle's code cache instead of
 * fifteen files resolved and compiled one by one (about 7 ms of every such recall, issue 17);
 * there that file is the bundle, so the addon is named here, where the package is installed.
 * Anywhere else (the daemon, the full CLI, the tests): better-sqlite3's own way.
 *
 * An addon not where it is looked for gives no option: better-sqlite3 then fails to open, the
 * fast path has printed nothing and hands the command to the full CLI, which finds it.
 */
let options: { nativeBinding?: string } | undefined;

export function sqliteAddonOptions(): { nativeBinding?: string } {
  if (typeof __KIOKU_BUNDLED_SQLITE__ === 'undefined' || !__KIOKU_BUNDLED_SQLITE__) return {};
  return (options ??= locateAddon());
}

const ADDON = path.join('better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

/**
 * The node_modules folders from the bundle's own up, as Node looks for a package: a stat each,
 * where require.resolve took about a millisecond of a fresh process (package.json lookups and
 * its "exports"); require.resolve still answers a layout this walk does not know.
 */
export function addonAbove(start: string): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const addon = path.join(dir, 'node_modules', ADDON);
    if (fs.existsSync(addon)) return addon;
    if (path.dirname(dir) === dir) return undefined;
  }
}

function locateAddon(): { nativeBinding?: string } {
  const above = typeof __dirname === 'string' ? addonAbove(__dirname) : undefined;
  if (above) return { nativeBinding: above };
  try {
    const addon = path.join(path.dirname(path.dirname(require.resolve('better-sqlite3/package.json'))), ADDON);
    return fs.existsSync(addon) ? { nativeBinding: addon } : {};
  } catch {
    return {};
  }
}
