import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SILICA, hookEvent, makeCallHome, type CallHome } from '../../../../test/call/call-fixtures.js';
import { activation, isInScope, isPathInside } from './activation.js';

/** HOOK-4 (ROLE_ENABLED, ROLE_SCOPE). */
let home: CallHome;
afterEach(() => home?.cleanup());

function withActive(id = 'SILICA01'): CallHome {
  home = makeCallHome([SILICA]);
  fs.writeFileSync(path.join(home.roleHome, '.active'), `${id}\n`);
  return home;
}

describe('activation', () => {
  it('unset: on when a role resolves and its files exist', () => {
    withActive();
    expect(activation(home.config(), hookEvent(home, 'sess-a'))).toEqual({ on: true, role: { id: 'SILICA01', source: 'active' } });
  });

  it('unset: off when no role resolves, or its files are gone ("沒建過角色的人零影響")', () => {
    home = makeCallHome([SILICA]);
    expect(activation(home.config(), hookEvent(home, 'sess-a'))).toEqual({ on: false, reason: 'no-role' });
    fs.writeFileSync(path.join(home.roleHome, '.active'), 'GONE01\n');
    expect(activation(home.config(), hookEvent(home, 'sess-a'))).toMatchObject({
      on: false,
      reason: 'role-missing',
      role: { id: 'GONE01' },
    });
  });

  it('ROLE_ENABLED=0 off; ROLE_ENABLED=1 on even without a role', () => {
    withActive();
    expect(activation(home.config({ ROLE_ENABLED: '0' }), hookEvent(home, 'sess-a'))).toEqual({ on: false, reason: 'disabled' });
    fs.rmSync(path.join(home.roleHome, '.active'));
    expect(activation(home.config({ ROLE_ENABLED: '1' }), hookEvent(home, 'sess-a'))).toEqual({ on: true, role: undefined });
  });

  it('an invalid .active is reported, not thrown', () => {
    withActive('silica01');
    expect(activation(home.config(), hookEvent(home, 'sess-a'))).toMatchObject({
      on: false,
      reason: 'invalid-role',
      problem: expect.stringContaining('uppercase'),
    });
    expect(activation(home.config({ ROLE_ENABLED: '1' }), hookEvent(home, 'sess-a'))).toMatchObject({
      on: true,
      role: undefined,
      problem: expect.any(String),
    });
  });

  it('no role home → off, even when forced on', () => {
    withActive();
    const missing = path.join(home.root, 'nowhere');
    expect(activation(home.config({ ROLE_HOME: missing, ROLE_ENABLED: '1' }), hookEvent(home, 'sess-a'))).toEqual({
      on: false,
      reason: 'no-role-home',
    });
  });

  it('ROLE_SCOPE: only sessions under one of the prefixes', () => {
    withActive();
    const work = path.join(home.root, 'work');
    const config = home.config({ ROLE_SCOPE: `${path.join(home.root, 'a')}:${work}` });
    expect(activation(config, hookEvent(home, 'sess-a', { cwd: path.join(work, 'repo') }))).toMatchObject({ on: true });
    expect(activation(config, hookEvent(home, 'sess-a', { cwd: home.root }))).toEqual({ on: false, reason: 'out-of-scope' });
  });
});

describe('scope matching', () => {
  it('compares whole path segments: /a/b does not cover /a/bc', () => {
    expect(isPathInside('/a/b', '/a/b')).toBe(true);
    expect(isPathInside('/a/b/c', '/a/b')).toBe(true);
    expect(isPathInside('/a/b/c', '/a/b/')).toBe(true);
    expect(isPathInside('/a/bc', '/a/b')).toBe(false);
    expect(isPathInside('/a', '/a/b')).toBe(false);
    expect(isPathInside('/a/b/../bc', '/a/b')).toBe(false);
    expect(isPathInside('/a/b/..x', '/a/b')).toBe(true);
  });

  it('expands ~ and skips empty entries; an empty scope means every session', () => {
    home = makeCallHome([]);
    const projects = path.join(home.root, 'projects');
    expect(isInScope(home.config({ ROLE_SCOPE: '::~/projects:' }), path.join(projects, 'x'))).toBe(true);
    expect(isInScope(home.config({ ROLE_SCOPE: '::~/projects:' }), path.join(home.root, 'projects2'))).toBe(false);
    expect(isInScope(home.config({ ROLE_SCOPE: ':' }), '/anywhere')).toBe(true);
    expect(isInScope(home.config(), '/anywhere')).toBe(true);
  });

  it('matches through symlinks on either side', () => {
    home = makeCallHome([]);
    const real = path.join(home.root, 'real');
    fs.mkdirSync(path.join(real, 'repo'), { recursive: true });
    const link = path.join(home.root, 'link');
    fs.symlinkSync(real, link);
    expect(isInScope(home.config({ ROLE_SCOPE: link }), path.join(real, 'repo'))).toBe(true);
    expect(isInScope(home.config({ ROLE_SCOPE: real }), path.join(link, 'repo'))).toBe(true);
  });
});
