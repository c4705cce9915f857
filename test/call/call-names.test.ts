import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { snapshotTree } from '../helpers/temp-home.js';
import { MUSE, SILICA, YUI, makeCallHome, writeRole, type CallHome } from './call-fixtures.js';

/**
 * The name cache behind the silent path's pre-check: it must follow every change to the roles.
 * Each test imports a fresh module so the in-process memo starts empty, as in a hook process.
 */
let home: CallHome;
let names: typeof import('../../main/core/engine/role-call/call-names.js');
beforeEach(async () => {
  vi.resetModules();
  names = await import('../../main/core/engine/role-call/call-names.js');
});
afterEach(() => home?.cleanup());

const idsAndNames = (config: ReturnType<CallHome['config']>) =>
  names
    .loadCallableRoles(config)
    .roles.map((r) => `${r.id}:${r.name}:${r.aliases.join('|')}`)
    .sort();

describe('call name cache', () => {
  it('loadCallableRoles never writes; refreshCallNameCache writes once and the file is then used', async () => {
    home = makeCallHome([SILICA, YUI]);
    const config = home.config();
    const before = snapshotTree(home.root);
    expect(names.loadCallableRoles(config).source).toBe('parsed');
    expect(snapshotTree(home.root)).toEqual(before);
    expect(names.refreshCallNameCache(config)).toBe(true);
    expect(names.refreshCallNameCache(config)).toBe(false);
    vi.resetModules();
    const fresh = await import('../../main/core/engine/role-call/call-names.js');
    expect(fresh.loadCallableRoles(config)).toMatchObject({ source: 'file' });
    expect(fresh.loadCallableRoles(config)).toMatchObject({ source: 'memo' });
  });

  it('follows a rename, an added role and a deleted role even with a stale cache file', () => {
    home = makeCallHome([SILICA, YUI]);
    const config = home.config();
    names.refreshCallNameCache(config);
    expect(idsAndNames(config)).toEqual(['SILICA01:西莉卡:小珪', 'YUI01:結衣:']);

    writeRole(home.roleHome, { ...SILICA, name: '西莉卡醬', aliases: ['矽'] });
    expect(idsAndNames(config)).toEqual(['SILICA01:西莉卡醬:矽', 'YUI01:結衣:']);

    writeRole(home.roleHome, MUSE);
    expect(idsAndNames(config)).toContain('MUSE01:Muse:inspiration');

    fs.rmSync(path.join(home.roleHome, 'YUI01.identity.md'));
    fs.rmSync(path.join(home.roleHome, 'YUI01.soul.md'));
    expect(idsAndNames(config)).toEqual(['MUSE01:Muse:inspiration', 'SILICA01:西莉卡醬:矽']);
  });

  it('leaves out roles that cannot be read (they cannot be loaded either)', () => {
    home = makeCallHome([SILICA]);
    fs.writeFileSync(path.join(home.roleHome, 'BROKEN01.identity.md'), '---\nname: 壞掉\n---\n');
    expect(idsAndNames(home.config())).toEqual(['SILICA01:西莉卡:小珪']);
  });

  it('ignores a broken or foreign cache file', async () => {
    home = makeCallHome([SILICA]);
    const config = home.config();
    fs.mkdirSync(config.paths.stateDir, { recursive: true });
    const fingerprint = names.roleFilesFingerprint(home.roleHome);
    const cacheFile = names.callNameCachePath(config);
    fs.writeFileSync(
      cacheFile,
      JSON.stringify({ v: 2, roleHome: home.roleHome, fingerprint, roles: [{ id: '../x', name: 1, aliases: 'no' }] }),
    );
    expect(names.loadCallableRoles(config)).toMatchObject({ source: 'parsed', roles: [{ id: 'SILICA01' }] });
    fs.writeFileSync(cacheFile, '{broken');
    vi.resetModules();
    const fresh = await import('../../main/core/engine/role-call/call-names.js');
    expect(fresh.loadCallableRoles(config)).toMatchObject({ source: 'parsed', roles: [{ id: 'SILICA01', name: '西莉卡' }] });
  });
});
