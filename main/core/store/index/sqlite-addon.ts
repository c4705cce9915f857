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

function locateAddon(): { nativeBinding?: string } {
  try {
    const addon = path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
    return fs.existsSync(addon) ? { nativeBinding: addon } : {};
  } catch {
    return {};
  }
}
