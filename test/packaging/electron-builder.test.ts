import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';

/**
 * electron-builder.yml (APP-5): the targets, and that everything an installed app needs is
 * shipped — and unpacked where plain `node` must read it (the hook client) or a native module
 * must load. Packaging itself cannot run here (it downloads Electron), so this checks the
 * configuration against the tree, and against dist/ when a build is there.
 */
const root = path.resolve(import.meta.dirname, '..', '..');

interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string; to: string }[];
  npmRebuild?: boolean;
  directories: { buildResources: string; output: string };
  linux: { target: string[]; executableName: string; icon: string };
  win: { target: string[] };
  mac: { target: string[] };
}

const config = yaml.load(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const packageJson = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  main: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
};

/** The fixed part of a pattern: `node_modules/sharp/**` → `node_modules/sharp`. */
function base(pattern: string): string {
  const parts = pattern.split('/');
  const fixed = parts.slice(0, parts.findIndex((p) => /[*?{[]/.test(p)) === -1 ? parts.length : parts.findIndex((p) => /[*?{[]/.test(p)));
  return fixed.join('/');
}

/** Whether a path is shipped: matched by an include pattern of `files` and by no exclusion. */
function shipped(file: string): boolean {
  const toRegex = (glob: string) =>
    new RegExp(
      `^${glob
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*\*\/?/g, '\u0000')
        .replace(/\*/g, '[^/]*')
        .replace(/\u0000/g, '.*')}$`,
    );
  const included = config.files.filter((p) => !p.startsWith('!')).some((p) => toRegex(p).test(file));
  const excluded = config.files.filter((p) => p.startsWith('!')).some((p) => toRegex(p.slice(1)).test(file));
  return included && !excluded;
}

describe('electron-builder.yml (APP-5)', () => {
  it('builds AppImage and deb, NSIS, and dmg', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
  });

  it('ships the app entry, the preload, the UI, the CLI, the hook client and its configs', () => {
    for (const file of [
      packageJson.main,
      'dist/preload/preload.cjs',
      'dist/renderer/index.html',
      'dist/main/cli/kioku.js',
      'dist/hooks/kioku-hook.js',
      'dist/main/core/engine/sleep/sleep-worker.js',
      packageJson.bin.kioku!,
      'package.json',
      'hooks/hooks.json',
      'resources/tray/16/awake.png',
      'resources/agents/agents.zh-TW.md',
      'resources/build/icon.png',
    ]) {
      expect(shipped(file), `${file} is not in files`).toBe(true);
    }
    expect(packageJson.main).toBe('dist/main/app/main.js');
    expect(shipped('dist/main/app/main.js.map')).toBe(false);
    expect(shipped('dist/bench/run.js')).toBe(false);
  });

  it('leaves out what the one tsc pass compiles only to type-check: tests and build records', () => {
    for (const file of [
      'dist/test/hostile/alias-bomb.test.js',
      'dist/main/core/store/memory/memory-writer.test.js',
      'dist/tsconfig.tsbuildinfo',
      'dist/.build-stamp',
    ]) {
      expect(shipped(file), `${file} is shipped`).toBe(false);
    }
    expect(shipped('dist/main/core/store/memory/memory-writer.js')).toBe(true);
  });

  it('unpacks the native modules and what plain `node` reads from an installed app', () => {
    for (const needed of [
      'node_modules/better-sqlite3/**',
      'node_modules/sharp/**',
      'node_modules/@img/**',
      'dist/hooks/**',
      'bin/**',
      'resources/agents/**',
      'resources/prompts/**',
      'resources/checks/**',
    ]) {
      expect(config.asarUnpack).toContain(needed);
    }
    // The hook configs name the client under dist/hooks, which is unpacked.
    const hooks = fs.readFileSync(path.join(root, 'hooks', 'hooks.json'), 'utf8');
    expect(hooks).toContain('/dist/hooks/kioku-hook.js');
  });

  it('rebuilds native modules at packaging only, never from an npm lifecycle script', () => {
    expect(config.npmRebuild).toBe(true);
    for (const [name, script] of Object.entries(packageJson.scripts)) {
      expect(/install-app-deps|electron-rebuild/.test(script), `npm script ${name}`).toBe(false);
    }
    expect(packageJson.scripts.postinstall).toBeUndefined();
  });

  it('names only sources that exist (outside dist/)', () => {
    const patterns = [...config.files, ...config.asarUnpack].filter((p) => !p.startsWith('!') && !p.startsWith('dist/'));
    for (const pattern of patterns) expect(fs.existsSync(path.join(root, base(pattern))), pattern).toBe(true);
    for (const extra of config.extraResources) expect(fs.existsSync(path.join(root, extra.from)), extra.from).toBe(true);
    expect(fs.existsSync(path.join(root, config.directories.buildResources, 'icon.png'))).toBe(true);
    expect(fs.existsSync(path.join(root, config.linux.icon))).toBe(true);
    // The `kioku` launcher of an installed app is executable and runs the app in Node mode.
    const launcher = path.join(root, 'resources', 'launchers', 'kioku');
    expect(fs.statSync(launcher).mode & 0o111).not.toBe(0);
    expect(fs.readFileSync(launcher, 'utf8')).toContain(
      `ELECTRON_RUN_AS_NODE=1 exec "$app" "$resources/app.asar/${packageJson.bin.kioku}"`,
    );
    expect(fs.readFileSync(launcher, 'utf8')).toContain(`$resources/../${config.linux.executableName}`);
  });

  it('after a build, every shipped file the app needs is in dist/', (context) => {
    if (!fs.existsSync(path.join(root, 'dist', 'main', 'app', 'main.js'))) {
      console.log('skipped: dist/ has no built app (dist/main/app/main.js); `npm run build` makes it, and `npm test` builds first');
      context.skip();
      return;
    }
    for (const file of [
      'dist/main/app/main.js',
      'dist/main/app/app-start.js',
      'dist/preload/preload.cjs',
      'dist/renderer/index.html',
      'dist/hooks/kioku-hook.js',
      'dist/main/cli/kioku.js',
      'dist/main/core/engine/sleep/sleep-worker.js',
    ]) {
      expect(fs.existsSync(path.join(root, file)), `${file} missing after the build`).toBe(true);
    }
  });
});
