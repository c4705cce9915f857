import { afterEach, describe, expect, it } from 'vitest';
import { decideCall } from '../../main/core/engine/role-call/decide-call.js';
import { snapshotTree } from '../helpers/temp-home.js';
import { LEOPARD, LEOPARD_CUB, SILICA, YUI, makeCallHome, promptFrom, readLock, sessionRoleOf, type CallHome } from './call-fixtures.js';

/**
 * CALL-1 end to end: the prompt arrives as a UserPromptSubmit event, and a
 * switch leaves the session's `.role` file and the callee's lock behind (CALL-3).
 */
let home: CallHome;
afterEach(() => home?.cleanup());

function expectSwitchTo(roleId: string, prompt: string, roles = [SILICA, YUI]) {
  home = makeCallHome(roles);
  const event = promptFrom(home, 'sess-a', prompt);
  const decision = decideCall(home.config(), event);
  expect(decision).toMatchObject({ kind: 'switch', calleeId: roleId, previousId: undefined, sessionKey: 'sess-a' });
  expect(sessionRoleOf(home, 'sess-a')).toBe(roleId);
  expect(readLock(home, roleId)).toMatchObject({
    role: roleId,
    sessionKey: 'sess-a',
    transcriptPath: event.transcriptPath,
    assistant: 'claude',
  });
}

function expectNoSwitch(prompt: string) {
  home = makeCallHome([SILICA, YUI]);
  const event = promptFrom(home, 'sess-a', prompt);
  const before = snapshotTree(home.root);
  expect(decideCall(home.config(), event)).toEqual({ kind: 'none', reason: 'not-a-call' });
  expect(snapshotTree(home.root)).toEqual(before);
}

describe('seed 000 §怎麼觸發', () => {
  it('西莉卡，幫我看這段 → switch', () => expectSwitchTo('SILICA01', '西莉卡，幫我看這段'));

  it('西莉卡在嗎 → switch (no separator after a CJK name)', () => expectSwitchTo('SILICA01', '西莉卡在嗎'));

  it('@SILICA01 幫我看 → switch', () => expectSwitchTo('SILICA01', '@SILICA01 幫我看'));

  it('@silica01 → switch (ID case-insensitive)', () => expectSwitchTo('SILICA01', '@silica01'));

  it('@小珪 ... → switch (alias)', () => expectSwitchTo('SILICA01', '@小珪 幫我看看這個錯誤'));

  it('剛剛西莉卡說的方法不錯 → no switch (only the start of the message counts)', () => expectNoSwitch('剛剛西莉卡說的方法不錯'));

  it('silica01x 是什麼 → no switch (ASCII name followed by a letter)', () => expectNoSwitch('silica01x 是什麼'));

  it('longest name wins: 小豹子 is called, not 小豹', () => expectSwitchTo('LEOPARDCUB01', '小豹子，來一下', [LEOPARD, LEOPARD_CUB]));

  it('結衣服 switches to 結衣 by default, and not at all with ROLE_CALL_MARKER_ONLY=1', () => {
    expectSwitchTo('YUI01', '結衣服要洗嗎');
    home.cleanup();
    home = makeCallHome([SILICA, YUI]);
    const config = home.config({ ROLE_CALL_MARKER_ONLY: '1' });
    const before = snapshotTree(home.root);
    expect(decideCall(config, promptFrom(home, 'sess-b', '結衣服要洗嗎'))).toEqual({ kind: 'none', reason: 'not-a-call' });
    // promptFrom wrote the transcript; nothing else may change.
    const after = snapshotTree(home.root);
    delete after['transcripts/sess-b.jsonl'];
    expect(after).toEqual(before);
    expect(decideCall(config, promptFrom(home, 'sess-b', '@結衣 在嗎'))).toMatchObject({ kind: 'switch', calleeId: 'YUI01' });
  });
});
