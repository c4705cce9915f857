import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadConfig } from './config.js';
import { fnv1a64Hex, resolvePaths, roleHomeFromEnv, socketPathFor, socketPathFromEnv } from './paths.js';

/** FNV-1a as its definition states it, in BigInt: the reference the 32-bit version must equal. */
function fnv1a64Reference(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

/** A seeded generator, so that a failure names texts that can be tried again. */
function randomTexts(count: number, seed: number): string[] {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 0x100000000;
  return Array.from({ length: count }, () => {
    let text = '';
    const length = Math.floor(next() * 120);
    for (let i = 0; i < length; i++) {
      const pick = next();
      text += String.fromCodePoint(
        pick < 0.6 ? 32 + Math.floor(next() * 95) : pick < 0.9 ? 0x4e00 + Math.floor(next() * 0x5200) : 0x80 + Math.floor(next() * 0x1ff00),
      );
    }
    return text;
  });
}

describe('fnv1a64Hex (the socket name of a memory home)', () => {
  it("gives FNV-1a's published values", () => {
    expect(fnv1a64Hex('')).toBe('cbf29ce484222325');
    expect(fnv1a64Hex('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64Hex('foobar')).toBe('85944171f73967e8');
  });

  it('equals the BigInt definition on 5,000 random texts of every width of UTF-8', () => {
    const texts = randomTexts(5_000, 17);
    expect(texts.filter((text) => fnv1a64Hex(text) !== fnv1a64Reference(text))).toEqual([]);
  });

  it('names the socket of a home as earlier versions did, so a running daemon is still found', () => {
    const env = { XDG_RUNTIME_DIR: '/run/user/1000' };
    expect(socketPathFor('/home/user/.memory', env, '/home/user/.memory/.kioku')).toBe(
      `/run/user/1000/kioku-${fnv1a64Reference('/home/user/.memory').slice(0, 12)}.sock`,
    );
  });
});

describe('socketPathFromEnv (the recall launcher looks for the daemon before reading settings)', () => {
  it('is the socket the settings resolve to, whatever the environment names', () => {
    for (const env of [
      { HOME: '/home/user' },
      { HOME: '/home/user', ROLE_MEMORY_HOME: '~/notes/記憶' },
      { HOME: '/home/user', ROLE_MEMORY_HOME: '/srv/mem', XDG_RUNTIME_DIR: '/run/user/1000' },
      { HOME: '/home/user', TMPDIR: `/tmp/${'x'.repeat(120)}` },
    ])
      expect(socketPathFromEnv(env)).toBe(loadConfig(env, { stored: {} }).paths.socketPath);
  });

  it('and the role home beside it, when no settings file sets one (the hook launcher reads no settings)', () => {
    for (const env of [
      { HOME: '/home/user' },
      { HOME: '/home/user', ROLE_HOME: ' ~/角色/ ' },
      { HOME: '/home/user', ROLE_HOME: '  ' },
      { HOME: '/', ROLE_HOME: '/' },
    ])
      expect(roleHomeFromEnv(env)).toBe(loadConfig(env, { stored: {} }).paths.roleHome);
  });
});

describe('resolvePaths (the folders and files of a home)', () => {
  it('names what path.join names, for ordinary, awkward and root homes', () => {
    for (const [roleHome, memoryHome] of [
      ['~/.roles', '~/.memory'],
      ['/srv/roles/', '/srv/mem//記憶/'],
      ['~/a/../roles', './relative/mem'],
      ['/', '/'],
    ]) {
      const paths = resolvePaths({ ROLE_HOME: roleHome!, ROLE_MEMORY_HOME: memoryHome! }, { HOME: '/home/user' });
      const memory = path.resolve(memoryHome!.replace(/^~/, '/home/user'));
      const roles = path.resolve(roleHome!.replace(/^~/, '/home/user'));
      expect(paths.memoryHome).toBe(memory);
      expect(paths.roleHome).toBe(roles);
      expect(paths.stateDir).toBe(path.join(memory, '.kioku'));
      expect(paths.indexFile).toBe(path.join(memory, '.kioku', 'index.sqlite'));
      expect(paths.settingsFile).toBe(path.join(memory, '.kioku', 'settings.json'));
      expect(paths.factsFile).toBe(path.join(memory, 'FACT.md'));
      expect(paths.sessionsDir).toBe(path.join(roles, '.sessions'));
    }
  });
});
