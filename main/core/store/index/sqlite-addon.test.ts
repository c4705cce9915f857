import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addonAbove } from './sqlite-addon.js';

const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function installed(at: string): string {
  const addon = path.join(at, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  fs.mkdirSync(path.dirname(addon), { recursive: true });
  fs.writeFileSync(addon, '');
  return addon;
}

describe("the SQLite addon of the recall bundle's own install (issue 17)", () => {
  it('is found in the nearest node_modules above the bundle, as Node would find the package', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-addon-'));
    made.push(root);
    const kioku = path.join(root, 'lib', 'node_modules', 'kioku');
    const bundleDir = path.join(kioku, 'dist', 'cli-fast');
    fs.mkdirSync(bundleDir, { recursive: true });
    expect(addonAbove(bundleDir)).toBeUndefined();
    const hoisted = installed(path.join(root, 'lib'));
    expect(addonAbove(bundleDir)).toBe(hoisted);
    const own = installed(kioku);
    expect(addonAbove(bundleDir)).toBe(own);
  });

  it("is this checkout's own from its built bundle", () => {
    const bundleDir = path.join(import.meta.dirname, '..', '..', '..', '..', 'dist', 'cli-fast');
    expect(addonAbove(bundleDir)).toBe(
      path.resolve(import.meta.dirname, '../../../../node_modules/better-sqlite3/build/Release/better_sqlite3.node'),
    );
  });
});
