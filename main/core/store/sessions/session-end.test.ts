import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decideCall } from '../../engine/role-call/decide-call.js';
import {
  SILICA,
  YUI,
  hookEvent,
  makeCallHome,
  promptFrom,
  readLock,
  sessionRoleOf,
  writeTranscript,
  type CallHome,
} from '../../../../test/call/call-fixtures.js';
import { claimRole } from './role-locks.js';
import { releaseSessionLocks } from './session-end.js';
import { writeSessionRole } from './session-role-file.js';

/** SessionEnd (LOCK-4, CALL-3, LOCK-1). */
let home: CallHome;
afterEach(() => home?.cleanup());

describe('releaseSessionLocks', () => {
  it("a second session refused by the lock ends → the first session's lock survives", () => {
    home = makeCallHome([SILICA, YUI]);
    const config = home.config();
    writeTranscript(home, 'sess-first');
    writeTranscript(home, 'sess-second');
    const first = hookEvent(home, 'sess-first', { event: 'session-end' });
    const second = hookEvent(home, 'sess-second', { event: 'session-end' });
    claimRole(config, 'SILICA01', first);
    expect(claimRole(config, 'SILICA01', second).ok).toBe(false);

    expect(releaseSessionLocks(config, second)).toMatchObject({ released: [] });
    expect(readLock(home, 'SILICA01')).toMatchObject({ sessionKey: 'sess-first' });
    // The holder's own SessionEnd frees it at once (LOCK-2 fast path).
    expect(releaseSessionLocks(config, first).released).toEqual(['SILICA01']);
    expect(readLock(home, 'SILICA01')).toBeUndefined();
  });

  it('releases every lock the session holds and keeps its .role file for a resume (issue 13)', () => {
    home = makeCallHome([SILICA, YUI]);
    const config = home.config({ ROLE_SINGLE_INSTANCE: '1' });
    const event = promptFrom(home, 'sess-a', '西莉卡在嗎');
    expect(decideCall(config, event)).toMatchObject({ kind: 'switch', calleeId: 'SILICA01' });
    // A second lock in its name, as left by an interrupted handover.
    claimRole(config, 'YUI01', event);
    writeTranscript(home, 'sess-other');
    claimRole(config, 'MUSE01', hookEvent(home, 'sess-other'));

    const result = releaseSessionLocks(config, event);
    expect(result).toMatchObject({ released: ['SILICA01', 'YUI01'] });
    // `claude --continue` resumes this very session: it must come back as the role it had.
    expect(sessionRoleOf(home, 'sess-a')).toBe('SILICA01');
    expect(readLock(home, 'MUSE01')).toMatchObject({ sessionKey: 'sess-other' });
  });

  it('matches the transcript by resolved path (a relative or symlinked spelling still counts)', () => {
    home = makeCallHome([SILICA]);
    const config = home.config();
    const transcript = writeTranscript(home, 'sess-a');
    claimRole(config, 'SILICA01', hookEvent(home, 'sess-a'));
    const link = path.join(home.root, 'link.jsonl');
    fs.symlinkSync(transcript, link);
    expect(releaseSessionLocks(config, { sessionId: 'other-id', transcriptPath: link }).released).toEqual(['SILICA01']);
  });

  it('also sweeps session state idle for 7 days', () => {
    home = makeCallHome([SILICA]);
    const config = home.config();
    const old = writeSessionRole(config, 'sess-old', 'SILICA01');
    const eightDaysAgo = new Date(config.clock.now().getTime() - 8 * 24 * 3600_000);
    fs.utimesSync(old, eightDaysAgo, eightDaysAgo);
    expect(releaseSessionLocks(config, hookEvent(home, 'sess-a')).staleFilesRemoved).toEqual(['sess-old.role']);
  });
});
