import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decideCall } from '../../main/core/engine/role-call/decide-call.js';
import { claimRole } from '../../main/core/store/sessions/role-locks.js';
import { writeSessionRole } from '../../main/core/store/sessions/session-role-file.js';
import { snapshotTree } from '../helpers/temp-home.js';
import {
  DAY,
  NIGHT,
  SILICA,
  YUI,
  hookEvent,
  makeCallHome,
  promptFrom,
  readLock,
  sessionRoleOf,
  writeTranscript,
  type CallHome,
} from './call-fixtures.js';

/** CALL-1, CALL-2, one row per test, plus the roles' states around it. */
let home: CallHome;
afterEach(() => home?.cleanup());

/** Run `fn` and check that no file anywhere under the test's root changed. */
function expectNothingWritten<T>(fn: () => T): T {
  const before = snapshotTree(home.root);
  const result = fn();
  expect(snapshotTree(home.root)).toEqual(before);
  return result;
}

describe('seed 000 §什麼情況不會切換', () => {
  it('calling the role the session already is → nothing at all', () => {
    home = makeCallHome([SILICA, YUI]);
    const config = home.config();
    const event = promptFrom(home, 'sess-a', '西莉卡，幫我看這段');
    expect(claimRole(config, 'SILICA01', event).ok).toBe(true);
    writeSessionRole(config, 'sess-a', 'SILICA01');
    expect(expectNothingWritten(() => decideCall(config, event))).toEqual({ kind: 'none', reason: 'same-role' });
  });

  it('calling the .active role that SessionStart loaded (own lock) → nothing at all', () => {
    home = makeCallHome([SILICA, YUI]);
    fs.writeFileSync(path.join(home.roleHome, '.active'), 'SILICA01\n');
    const config = home.config();
    const event = promptFrom(home, 'sess-a', '@SILICA01 在嗎');
    claimRole(config, 'SILICA01', event);
    expect(expectNothingWritten(() => decideCall(config, event))).toEqual({ kind: 'none', reason: 'same-role' });
  });

  it('sleep window → a note naming the callee; answer as the current self; nothing written', () => {
    home = makeCallHome([SILICA, YUI], NIGHT);
    fs.writeFileSync(path.join(home.roleHome, '.active'), 'YUI01\n');
    const event = hookEvent(home, 'sess-a', { prompt: '西莉卡在嗎' });
    writeTranscript(home, 'sess-a', 0, NIGHT);
    const decision = expectNothingWritten(() => decideCall(home.config(), event));
    expect(decision).toMatchObject({ kind: 'asleep-note', calleeId: 'SILICA01', currentId: 'YUI01' });
  });

  it('callee held by another live session → a note with the holder and the three remedies; nothing changes', () => {
    home = makeCallHome([SILICA, YUI]);
    const config = home.config({ ROLE_INSTANCE_IDLE_MINUTES: '30' });
    const holderEvent = hookEvent(home, 'sess-holder');
    writeTranscript(home, 'sess-holder', 5);
    expect(claimRole(config, 'SILICA01', holderEvent)).toMatchObject({ ok: true, how: 'created' });
    const event = promptFrom(home, 'sess-b', '西莉卡，幫我看這段');
    const decision = expectNothingWritten(() => decideCall(config, event));
    expect(decision).toMatchObject({
      kind: 'locked-note',
      calleeId: 'SILICA01',
      holder: { role: 'SILICA01', sessionKey: 'sess-holder', transcriptPath: holderEvent.transcriptPath },
      remedies: { unlockCommand: 'kioku role unlock SILICA01', idleMinutes: 30, disableSetting: 'ROLE_SINGLE_INSTANCE=0' },
    });
    if (decision.kind !== 'locked-note') throw new Error('unreachable');
    // The idle timeout frees the role 30 minutes after the holder's last activity (5 minutes ago).
    expect(new Date(decision.remedies.freeAfter).getTime()).toBe(DAY.getTime() + 25 * 60_000);
    expect(sessionRoleOf(home, 'sess-b')).toBeUndefined();
  });

  it('a session refused its .active role at SessionStart gets the locked note when it calls that role', () => {
    home = makeCallHome([SILICA, YUI]);
    fs.writeFileSync(path.join(home.roleHome, '.active'), 'SILICA01\n');
    const config = home.config();
    writeTranscript(home, 'sess-holder', 1);
    claimRole(config, 'SILICA01', hookEvent(home, 'sess-holder'));
    const event = promptFrom(home, 'sess-b', '西莉卡在嗎');
    expect(claimRole(config, 'SILICA01', event).ok).toBe(false);
    expect(decideCall(config, event)).toMatchObject({ kind: 'locked-note', calleeId: 'SILICA01', currentId: 'SILICA01' });
    // …and may still call another, free role (LOCK-1).
    expect(decideCall(config, { ...event, prompt: '結衣在嗎' })).toMatchObject({ kind: 'switch', calleeId: 'YUI01', released: [] });
    expect(readLock(home, 'SILICA01')).toMatchObject({ sessionKey: 'sess-holder' });
  });

  it('ROLE_CALL_ENABLED=0 → nothing', () => {
    home = makeCallHome([SILICA, YUI]);
    const event = promptFrom(home, 'sess-a', '西莉卡在嗎');
    expect(expectNothingWritten(() => decideCall(home.config({ ROLE_CALL_ENABLED: '0' }), event))).toEqual({
      kind: 'none',
      reason: 'call-disabled',
    });
  });

  it('ROLE_ENABLED=0 → nothing', () => {
    home = makeCallHome([SILICA, YUI]);
    const event = promptFrom(home, 'sess-a', '西莉卡在嗎');
    expect(expectNothingWritten(() => decideCall(home.config({ ROLE_ENABLED: '0' }), event))).toEqual({ kind: 'none', reason: 'disabled' });
  });

  it('cwd outside ROLE_SCOPE → nothing; inside → switch', () => {
    home = makeCallHome([SILICA, YUI]);
    const project = path.join(home.root, 'work', 'project');
    fs.mkdirSync(project, { recursive: true });
    const config = home.config({ ROLE_SCOPE: `${path.join(home.root, 'elsewhere')}:${path.join(home.root, 'work')}` });
    const outside = promptFrom(home, 'sess-a', '西莉卡在嗎', { cwd: path.join(home.root, 'workshop') });
    expect(expectNothingWritten(() => decideCall(config, outside))).toEqual({ kind: 'none', reason: 'out-of-scope' });
    expect(decideCall(config, { ...outside, cwd: project })).toMatchObject({ kind: 'switch', calleeId: 'SILICA01' });
  });

  it('no role home → nothing, and no folder is created', () => {
    home = makeCallHome([]);
    const missing = path.join(home.root, 'no-roles-here');
    const event = promptFrom(home, 'sess-a', '西莉卡在嗎');
    expect(expectNothingWritten(() => decideCall(home.config({ ROLE_HOME: missing }), event))).toEqual({
      kind: 'none',
      reason: 'no-role-home',
    });
    expect(fs.existsSync(missing)).toBe(false);
  });
});
