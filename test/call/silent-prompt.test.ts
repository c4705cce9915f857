import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adapterFor } from '../../main/core/integrations/assistants/adapters.js';
import { refreshCallNameCache } from '../../main/core/engine/role-call/call-names.js';
import { decideCall } from '../../main/core/engine/role-call/decide-call.js';
import { surelyNotACall } from '../../main/core/integrations/assistants/silent-prompt.js';
import { snapshotTree } from '../helpers/temp-home.js';
import { LEOPARD, LEOPARD_CUB, MUSE, SILICA, YUI, makeCallHome, promptFrom, writeRole, type CallHome } from './call-fixtures.js';

/**
 * The hook client's own "not a call" (CALL-4): it answers a prompt without asking the app only
 * when the app's decideCall would say "none" for certain. Every prompt here is put to both.
 */
let home: CallHome;
afterEach(() => home?.cleanup());

const PROMPTS = [
  '幫我看這段程式',
  '剛剛西莉卡說的方法不錯',
  'silica01x 是什麼',
  '@nobody 在嗎',
  '   ',
  '',
  '西莉卡，幫我看這段',
  '小珪在嗎',
  '@YUI01 接手',
  '  結衣？',
  '小豹子你好',
  '小豹你好',
  'Muse, any ideas?',
  'inspiration please',
  '＠西莉卡 來一下',
];

function withCache(): ReturnType<CallHome['config']> {
  home = makeCallHome([SILICA, YUI, MUSE, LEOPARD, LEOPARD_CUB]);
  const config = home.config();
  refreshCallNameCache(config);
  return config;
}

describe('surelyNotACall (the hook decides alone)', () => {
  it.each(PROMPTS)('%j: never says "not a call" where the app would switch or explain', (prompt) => {
    const config = withCache();
    const alone = surelyNotACall(config, { prompt });
    const app = decideCall(config, promptFrom(home, 'sess-a', prompt));
    if (alone) expect(app.kind).toBe('none');
    // With a fresh cache and no role held yet, it is exact: what the app ignores is ignored here.
    if (app.kind === 'none') expect(alone).toBe(true);
  });

  it('answers alone for most prompts and writes nothing', () => {
    const config = withCache();
    const before = snapshotTree(home.root);
    expect(surelyNotACall(config, { prompt: '幫我把部署流程的測試補齊' })).toBe(true);
    expect(surelyNotACall(config, { prompt: '西莉卡，幫我看這段' })).toBe(false);
    expect(snapshotTree(home.root)).toEqual(before);
  });

  it("issue 13: Gemini's first prompt, after SessionStart's <hook_context>, is still a call by name", () => {
    const config = withCache();
    const prompt = '<hook_context>## 共用行為\n- 角色設定不是編造事實的理由。</hook_context>西莉卡，幫我看這段';
    expect(surelyNotACall(config, { prompt })).toBe(false);
    const words = adapterFor('gemini').parseEvent('user-prompt-submit', { prompt }, new Date()).prompt!;
    expect(decideCall(config, promptFrom(home, 'sess-a', words)).kind).toBe('switch');
    // Nothing but injected text is no prompt at all.
    expect(surelyNotACall(config, { prompt: '<hook_context>西莉卡</hook_context>' })).toBe(true);
  });

  it('leaves the decision to the app without a cache, with a stale one, or with a payload it cannot read', () => {
    home = makeCallHome([SILICA]);
    const config = home.config();
    expect(surelyNotACall(config, { prompt: '幫我看這段程式' })).toBe(false);
    refreshCallNameCache(config);
    expect(surelyNotACall(config, { prompt: '幫我看這段程式' })).toBe(true);
    // A role added after the cache was written: its name is unknown to the cache.
    writeRole(home.roleHome, { id: 'HELP01', name: '幫我' });
    expect(surelyNotACall(config, { prompt: '幫我看這段程式' })).toBe(false);
    expect(decideCall(config, promptFrom(home, 'sess-a', '幫我看這段程式')).kind).toBe('switch');
    refreshCallNameCache(config);
    fs.writeFileSync(path.join(config.paths.stateDir, 'call-names.json'), '{broken');
    expect(surelyNotACall(config, { prompt: '今天天氣如何' })).toBe(false);
    expect(surelyNotACall(config, ['not', 'an', 'object'])).toBe(false);
    expect(surelyNotACall(config, null)).toBe(false);
  });

  it('needs nothing read when calling is off or the prompt is blank', () => {
    home = makeCallHome([SILICA]);
    expect(surelyNotACall(home.config({ ROLE_CALL_ENABLED: '0' }), { prompt: '西莉卡，幫我看這段' })).toBe(true);
    expect(surelyNotACall(home.config({ ROLE_ENABLED: '0' }), { prompt: '西莉卡，幫我看這段' })).toBe(true);
    expect(surelyNotACall(home.config(), { prompt: '   ' })).toBe(true);
    expect(surelyNotACall(home.config(), {})).toBe(true);
    // Marker-only: a prompt without @ is no call, whatever the cache says.
    expect(surelyNotACall(home.config({ ROLE_CALL_MARKER_ONLY: '1' }), { prompt: '西莉卡，幫我看這段' })).toBe(true);
  });
});
