import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshCallNameCache } from '../../main/core/engine/role-call/call-names.js';
import { decideCall } from '../../main/core/engine/role-call/decide-call.js';
import { claimRole } from '../../main/core/store/sessions/role-locks.js';
import { writeSessionRole } from '../../main/core/store/sessions/session-role-file.js';
import { snapshotTree } from '../helpers/temp-home.js';
import { SILICA, YUI, makeCallHome, promptFrom, type CallHome } from './call-fixtures.js';

/**
 * CALL-4: a prompt that is not a call prints nothing and writes no file. The role home and the
 * memory home (state dir included) are snapshotted around prompts that are not calls.
 */
let home: CallHome;
afterEach(() => {
  vi.restoreAllMocks();
  home?.cleanup();
});

const NOT_CALLS = ['幫我看這段程式', '剛剛西莉卡說的方法不錯', 'silica01x 是什麼', '@nobody 在嗎', '   ', ''];

function busySession(): { config: ReturnType<CallHome['config']> } {
  home = makeCallHome([SILICA, YUI]);
  fs.writeFileSync(path.join(home.roleHome, '.active'), 'YUI01\n');
  const config = home.config();
  const event = promptFrom(home, 'sess-a', 'x');
  claimRole(config, 'YUI01', event);
  writeSessionRole(config, 'sess-a', 'YUI01');
  return { config };
}

describe('the silent path writes nothing', () => {
  it.each(NOT_CALLS)('%j: no output and no file changed (no name cache yet)', (prompt) => {
    const { config } = busySession();
    const event = promptFrom(home, 'sess-a', prompt);
    const before = snapshotTree(home.root);
    expect(decideCall(config, event)).toEqual({ kind: 'none', reason: 'not-a-call' });
    expect(snapshotTree(home.root)).toEqual(before);
  });

  it('no file changed with a name cache present, nor when a role changed since it was written', () => {
    const { config } = busySession();
    refreshCallNameCache(config);
    const event = promptFrom(home, 'sess-a', '今天天氣如何');
    const before = snapshotTree(home.root);
    expect(decideCall(config, event).kind).toBe('none');
    fs.writeFileSync(
      path.join(home.roleHome, 'SILICA01.identity.md'),
      fs.readFileSync(path.join(home.roleHome, 'SILICA01.identity.md'), 'utf8').replace('小珪', '小矽'),
    );
    const afterEdit = snapshotTree(home.root);
    expect(decideCall(config, event).kind).toBe('none');
    expect(snapshotTree(home.root)).toEqual(afterEdit);
    expect(Object.keys(afterEdit).filter((k) => k !== 'roles/SILICA01.identity.md')).toEqual(
      Object.keys(before).filter((k) => k !== 'roles/SILICA01.identity.md'),
    );
  });
});

describe('the silent path reads little', () => {
  it('with ROLE_CALL_MARKER_ONLY=1, a prompt without @ touches no file at all', () => {
    busySession();
    const markerOnly = home.config({ ROLE_CALL_MARKER_ONLY: '1' });
    const event = promptFrom(home, 'sess-a', '西莉卡在嗎');
    const spies = [vi.spyOn(fs, 'readFileSync'), vi.spyOn(fs, 'readdirSync'), vi.spyOn(fs, 'statSync'), vi.spyOn(fs, 'existsSync')];
    expect(decideCall(markerOnly, event)).toEqual({ kind: 'none', reason: 'not-a-call' });
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('with a fresh name cache, no role definition file is read', () => {
    const { config } = busySession();
    refreshCallNameCache(config);
    const event = promptFrom(home, 'sess-a', '今天天氣如何');
    const reads = vi.spyOn(fs, 'readFileSync');
    expect(decideCall(config, event).kind).toBe('none');
    const files = reads.mock.calls.map((call) => String(call[0]));
    expect(files.filter((f) => f.endsWith('.md'))).toEqual([]);
    // Nor the session's state: who the session is matters only once a name matched.
    expect(files.filter((f) => f.includes('.sessions') || f.endsWith('.active') || f.includes('.locks'))).toEqual([]);
  });
});
