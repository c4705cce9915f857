import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SILICA, YUI, hookEvent, makeCallHome, type CallHome } from '../../../../test/call/call-fixtures.js';
import { cleanupIdleSessionFiles, readSessionRole, removeSessionRole, sessionRoleFilePath, writeSessionRole } from './session-role-file.js';
import { resolveSessionRole } from './session-role.js';

let home: CallHome;
afterEach(() => home?.cleanup());

const DAY_MS = 24 * 3600_000;

describe('.sessions/<key>.role', () => {
  it('writes, reads and removes the session role', () => {
    home = makeCallHome([SILICA]);
    const config = home.config();
    const file = writeSessionRole(config, 'sess-a', 'SILICA01');
    expect(file).toBe(path.join(home.roleHome, '.sessions', 'sess-a.role'));
    expect(fs.readFileSync(file, 'utf8')).toBe('SILICA01\n');
    expect(readSessionRole(config, 'sess-a')).toBe('SILICA01');
    expect(removeSessionRole(config, 'sess-a')).toBe(true);
    expect(removeSessionRole(config, 'sess-a')).toBe(false);
    expect(readSessionRole(config, 'sess-a')).toBeUndefined();
  });

  it('ignores a value that is not a role ID, and refuses unsafe keys', () => {
    home = makeCallHome([SILICA]);
    const config = home.config();
    fs.mkdirSync(config.paths.sessionsDir, { recursive: true });
    fs.writeFileSync(path.join(config.paths.sessionsDir, 'sess-a.role'), '../../etc\n');
    expect(readSessionRole(config, 'sess-a')).toBeUndefined();
    for (const bad of ['', '../x', '.hidden', 'a/b'])
      expect(() => sessionRoleFilePath(config, bad)).toThrow(expect.objectContaining({ code: 'INVALID_ID' }));
  });
});

describe('resolveSessionRole', () => {
  it("the session's .role file wins over .active; without it, .active; ROLE_NAME over .active", () => {
    home = makeCallHome([SILICA, YUI]);
    fs.writeFileSync(path.join(home.roleHome, '.active'), 'YUI01\n');
    const config = home.config();
    const event = hookEvent(home, 'sess-a');
    expect(resolveSessionRole(config, event)).toEqual({ id: 'YUI01', source: 'active' });
    writeSessionRole(config, 'sess-a', 'SILICA01');
    expect(resolveSessionRole(config, event)).toEqual({ id: 'SILICA01', source: 'session' });
    expect(resolveSessionRole(home.config({ ROLE_NAME: 'YUI01' }), hookEvent(home, 'sess-b'))).toEqual({ id: 'YUI01', source: 'env' });
  });

  it('falls back to the transcript file name as the key, and ignores a .role naming a deleted role', () => {
    home = makeCallHome([SILICA, YUI]);
    fs.writeFileSync(path.join(home.roleHome, '.active'), 'YUI01\n');
    const config = home.config();
    writeSessionRole(config, 'sess-t', 'SILICA01');
    const noId = hookEvent(home, 'sess-t', { sessionId: undefined });
    expect(resolveSessionRole(config, noId)).toEqual({ id: 'SILICA01', source: 'session' });
    fs.rmSync(path.join(home.roleHome, 'SILICA01.identity.md'));
    fs.rmSync(path.join(home.roleHome, 'SILICA01.soul.md'));
    expect(resolveSessionRole(config, noId)).toEqual({ id: 'YUI01', source: 'active' });
  });
});

describe('cleanupIdleSessionFiles (LOCK-4: 7 days)', () => {
  it('removes session state not updated for 7 days and keeps the rest', () => {
    home = makeCallHome([SILICA]);
    const config = home.config();
    const now = config.clock.now();
    const age = (file: string, days: number) => {
      const t = new Date(now.getTime() - days * DAY_MS);
      fs.utimesSync(file, t, t);
    };
    age(writeSessionRole(config, 'old', 'SILICA01'), 7.5);
    age(writeSessionRole(config, 'recent', 'SILICA01'), 6.5);
    const leftover = path.join(config.paths.sessionsDir, '.old.role.123-abcd.tmp');
    fs.writeFileSync(leftover, 'x');
    age(leftover, 30);
    expect(cleanupIdleSessionFiles(config).sort()).toEqual(['.old.role.123-abcd.tmp', 'old.role']);
    expect(fs.readdirSync(config.paths.sessionsDir)).toEqual(['recent.role']);
  });

  it('does nothing when there is no .sessions folder', () => {
    home = makeCallHome([]);
    expect(cleanupIdleSessionFiles(home.config())).toEqual([]);
    expect(fs.existsSync(path.join(home.roleHome, '.sessions'))).toBe(false);
  });
});
