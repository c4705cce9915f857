import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { loadConfig } from './config.js';
import { expandHome } from './paths.js';

let home: TempHome | undefined;
afterEach(() => home?.cleanup());

describe('loadConfig', () => {
  it('reads settings.json from the memory home, and the environment wins', () => {
    home = makeTempHome();
    fs.mkdirSync(path.join(home.memoryHome, '.kioku'), { recursive: true });
    fs.writeFileSync(
      path.join(home.memoryHome, '.kioku', 'settings.json'),
      JSON.stringify({ ROLE_LOAD_LIMIT: 1000, ROLE_NAP_MIN_INBOX: 5 }),
    );
    const config = loadConfig({ ...home.env, ROLE_NAP_MIN_INBOX: '7' });
    expect(config.settings.ROLE_LOAD_LIMIT).toBe(1000);
    expect(config.settings.ROLE_NAP_MIN_INBOX).toBe(7);
    expect(config.paths.indexFile).toBe(path.join(home.memoryHome, '.kioku', 'index.sqlite'));
    expect(config.paths.roleHome).toBe(home.roleHome);
  });

  it('names a corrupt settings file and carries on with defaults', () => {
    home = makeTempHome();
    fs.mkdirSync(path.join(home.memoryHome, '.kioku'), { recursive: true });
    fs.writeFileSync(path.join(home.memoryHome, '.kioku', 'settings.json'), '{ not json');
    const config = loadConfig(home.env);
    expect(config.settings.ROLE_LOAD_LIMIT).toBe(4000);
    expect(config.problems.map((p) => p.message).join('\n')).toMatch(/settings\.json is not valid JSON/);
  });

  it('a home without a settings file is not read for one (a failed read is the first exception of a hook: 0.3 ms)', () => {
    home = makeTempHome();
    const read = vi.spyOn(fs, 'readFileSync');
    try {
      const config = loadConfig(home.env);
      expect(config.settings.ROLE_LOAD_LIMIT).toBe(4000);
      expect(config.problems).toEqual([]);
      expect(read.mock.calls.filter(([file]) => String(file).endsWith('settings.json'))).toEqual([]);
    } finally {
      read.mockRestore();
    }
  });

  it('gives each memory home its own socket', () => {
    home = makeTempHome();
    const a = loadConfig(home.env).paths.socketPath;
    const b = loadConfig({ ...home.env, ROLE_MEMORY_HOME: path.join(home.root, 'other') }).paths.socketPath;
    expect(a).not.toBe(b);
    expect(Buffer.byteLength(a)).toBeLessThanOrEqual(103);
  });

  it('expands ~ in homes', () => {
    expect(expandHome('~/.roles', '/home/u')).toBe(path.join('/home/u', '.roles'));
    expect(expandHome('/abs', '/home/u')).toBe('/abs');
  });
});
