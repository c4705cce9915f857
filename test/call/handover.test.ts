import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decideCall } from '../../main/core/engine/role-call/decide-call.js';
import { claimRole } from '../../main/core/store/sessions/role-locks.js';
import {
  SILICA,
  YUI,
  hookEvent,
  lockFile,
  makeCallHome,
  promptFrom,
  readLock,
  sessionRoleOf,
  writeTranscript,
  type CallHome,
} from './call-fixtures.js';

/**
 * CALL-3: take the callee's lock first, then record the session's role, then
 * release the old lock — so a failed take never leaves the session with no role at all, and a
 * successful one frees the old role at once for other terminals.
 */
let home: CallHome;
afterEach(() => home?.cleanup());

function sessionOnYui(): { config: ReturnType<CallHome['config']>; event: ReturnType<typeof promptFrom> } {
  home = makeCallHome([SILICA, YUI]);
  fs.writeFileSync(path.join(home.roleHome, '.active'), 'YUI01\n');
  const config = home.config();
  const event = promptFrom(home, 'sess-a', '西莉卡，幫我看這段');
  expect(claimRole(config, 'YUI01', event)).toMatchObject({ ok: true, how: 'created' });
  return { config, event };
}

describe('lock handover on a switch', () => {
  it('takes the callee, records the session role, and frees the old role at once', () => {
    const { config, event } = sessionOnYui();
    expect(decideCall(config, event)).toMatchObject({ kind: 'switch', calleeId: 'SILICA01', previousId: 'YUI01', released: ['YUI01'] });
    expect(readLock(home, 'SILICA01')).toMatchObject({ sessionKey: 'sess-a' });
    expect(readLock(home, 'YUI01')).toBeUndefined();
    expect(sessionRoleOf(home, 'sess-a')).toBe('SILICA01');
    // Another terminal can call the old role straight away.
    writeTranscript(home, 'sess-b');
    expect(claimRole(config, 'YUI01', hookEvent(home, 'sess-b'))).toMatchObject({ ok: true, how: 'created' });
  });

  it('switching back and forth keeps exactly one lock for the session', () => {
    const { config, event } = sessionOnYui();
    decideCall(config, event);
    expect(decideCall(config, { ...event, prompt: '結衣，換你' })).toMatchObject({
      kind: 'switch',
      calleeId: 'YUI01',
      previousId: 'SILICA01',
      released: ['SILICA01'],
    });
    expect(fs.readdirSync(path.join(home.roleHome, '.locks')).filter((n) => n.endsWith('.lock'))).toEqual(['YUI01.lock']);
    expect(sessionRoleOf(home, 'sess-a')).toBe('YUI01');
  });

  it('a failed take changes nothing: the old lock and the session file stay as they were', () => {
    const { config, event } = sessionOnYui();
    fs.mkdirSync(path.join(home.roleHome, '.sessions'), { recursive: true });
    fs.writeFileSync(path.join(home.roleHome, '.sessions', 'sess-a.role'), 'YUI01\n');
    writeTranscript(home, 'sess-holder', 2);
    claimRole(config, 'SILICA01', hookEvent(home, 'sess-holder'));
    const oldLock = fs.readFileSync(lockFile(home, 'YUI01'), 'utf8');
    const holderLock = fs.readFileSync(lockFile(home, 'SILICA01'), 'utf8');

    expect(decideCall(config, event)).toMatchObject({ kind: 'locked-note', calleeId: 'SILICA01', currentId: 'YUI01' });
    expect(fs.readFileSync(lockFile(home, 'YUI01'), 'utf8')).toBe(oldLock);
    expect(fs.readFileSync(lockFile(home, 'SILICA01'), 'utf8')).toBe(holderLock);
    expect(sessionRoleOf(home, 'sess-a')).toBe('YUI01');
  });

  it('when the session file cannot be written, the callee lock is given back and the old one kept', () => {
    const { config, event } = sessionOnYui();
    // A folder where the .role file should go makes the atomic rename fail.
    fs.mkdirSync(path.join(home.roleHome, '.sessions', 'sess-a.role', 'x'), { recursive: true });
    expect(() => decideCall(config, event)).toThrow();
    expect(readLock(home, 'SILICA01')).toBeUndefined();
    expect(readLock(home, 'YUI01')).toMatchObject({ sessionKey: 'sess-a' });
  });

  it('a session with no transcript switches without locks (LOCK-3) and still records its role', () => {
    home = makeCallHome([SILICA, YUI]);
    const event = hookEvent(home, 'sess-x', { transcriptPath: undefined, prompt: '西莉卡在嗎' });
    expect(decideCall(home.config(), event)).toMatchObject({ kind: 'switch', calleeId: 'SILICA01', sessionKey: 'sess-x' });
    expect(fs.existsSync(path.join(home.roleHome, '.locks'))).toBe(false);
    expect(sessionRoleOf(home, 'sess-x')).toBe('SILICA01');
  });
});
