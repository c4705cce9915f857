import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { hookEvent, lockFile, makeCallHome, readLock, writeTranscript, type CallHome } from '../../../../test/call/call-fixtures.js';
import { writeActiveRoleId } from '../roles/role-active.js';
import { releaseAfterFailedStart } from './failed-start.js';
import { claimRole } from './role-locks.js';

/** LOCK-1 after a SessionStart that failed: the session's own claim on its role goes, nothing else. */
let home: CallHome;
afterEach(() => home?.cleanup());

describe('releaseAfterFailedStart', () => {
  it('releases the lock this session took on its role', () => {
    home = makeCallHome();
    writeActiveRoleId(home.roleHome, 'SILICA01');
    const config = home.config();
    writeTranscript(home, 'sess-a');
    const a = hookEvent(home, 'sess-a');
    expect(claimRole(config, 'SILICA01', a)).toMatchObject({ ok: true, how: 'created' });
    expect(releaseAfterFailedStart(config, a)).toEqual(['SILICA01']);
    expect(fs.existsSync(lockFile(home, 'SILICA01'))).toBe(false);
  });

  it("leaves another session's lock on the role alone", () => {
    home = makeCallHome();
    writeActiveRoleId(home.roleHome, 'SILICA01');
    const config = home.config();
    writeTranscript(home, 'sess-a');
    writeTranscript(home, 'sess-b');
    const a = hookEvent(home, 'sess-a');
    expect(claimRole(config, 'SILICA01', a)).toMatchObject({ ok: true });
    expect(releaseAfterFailedStart(config, hookEvent(home, 'sess-b'))).toEqual([]);
    expect(readLock(home, 'SILICA01')).toMatchObject({ sessionKey: 'sess-a' });
  });

  it('does nothing, and does not throw, without a lock or a session to identify', () => {
    home = makeCallHome();
    writeActiveRoleId(home.roleHome, 'SILICA01');
    const config = home.config();
    writeTranscript(home, 'sess-a');
    expect(releaseAfterFailedStart(config, hookEvent(home, 'sess-a'))).toEqual([]);
    expect(releaseAfterFailedStart(config, { sessionId: undefined, transcriptPath: undefined })).toEqual([]);
  });
});
