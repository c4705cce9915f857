import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SILICA, YUI, makeCallHome, promptFrom, readLock, type CallHome } from './call-fixtures.js';

/**
 * The order itself (CALL-3), observed at the module boundary: each step also
 * records which locks exist at that moment, so "the callee's lock existed before the old one was
 * released" is checked directly, not inferred from the end state.
 */
const steps: { step: string; locks: string[] }[] = [];
let locksDirForSpy = '';
const locksNow = () => {
  try {
    return fs
      .readdirSync(locksDirForSpy)
      .filter((n) => n.endsWith('.lock'))
      .sort();
  } catch {
    return [];
  }
};

vi.mock('../../main/core/store/sessions/role-locks.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../main/core/store/sessions/role-locks.js')>();
  return {
    ...real,
    claimRole: (...args: Parameters<typeof real.claimRole>) => {
      const result = real.claimRole(...args);
      steps.push({ step: `claim ${args[1]}`, locks: locksNow() });
      return result;
    },
    releaseOwnLocks: (...args: Parameters<typeof real.releaseOwnLocks>) => {
      steps.push({ step: 'release old', locks: locksNow() });
      return real.releaseOwnLocks(...args);
    },
  };
});

vi.mock('../../main/core/store/sessions/session-role-file.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../main/core/store/sessions/session-role-file.js')>();
  return {
    ...real,
    writeSessionRole: (...args: Parameters<typeof real.writeSessionRole>) => {
      steps.push({ step: `record ${args[2]}`, locks: locksNow() });
      return real.writeSessionRole(...args);
    },
  };
});

let home: CallHome;
afterEach(() => home?.cleanup());

describe('handover order', () => {
  it('claims the callee, records the session role, then releases the old lock', async () => {
    const { decideCall } = await import('../../main/core/engine/role-call/decide-call.js');
    const { claimRole } = await import('../../main/core/store/sessions/role-locks.js');
    home = makeCallHome([SILICA, YUI]);
    locksDirForSpy = path.join(home.roleHome, '.locks');
    fs.writeFileSync(path.join(home.roleHome, '.active'), 'YUI01\n');
    const config = home.config();
    const event = promptFrom(home, 'sess-a', '西莉卡在嗎');
    claimRole(config, 'YUI01', event);
    steps.length = 0;

    expect(decideCall(config, event)).toMatchObject({ kind: 'switch', calleeId: 'SILICA01', previousId: 'YUI01' });
    expect(steps).toEqual([
      { step: 'claim SILICA01', locks: ['SILICA01.lock', 'YUI01.lock'] },
      { step: 'record SILICA01', locks: ['SILICA01.lock', 'YUI01.lock'] },
      { step: 'release old', locks: ['SILICA01.lock', 'YUI01.lock'] },
    ]);
    expect(readLock(home, 'YUI01')).toBeUndefined();
  });
});
