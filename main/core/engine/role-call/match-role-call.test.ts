import { describe, expect, it } from 'vitest';
import { couldBeCall, matchRoleCall, type CallableRole } from './match-role-call.js';

const SILICA: CallableRole = { id: 'SILICA01', name: '西莉卡', aliases: ['小珪'] };
const YUI: CallableRole = { id: 'YUI01', name: '結衣', aliases: [] };
const LEOPARD: CallableRole = { id: 'LEOPARD01', name: '小豹', aliases: [] };
const LEOPARD_CUB: CallableRole = { id: 'LEOPARDCUB01', name: '小豹子', aliases: [] };
const MUSE: CallableRole = { id: 'MUSE01', name: 'Muse', aliases: ['inspiration'] };
const ROLES = [SILICA, YUI, LEOPARD, LEOPARD_CUB, MUSE];

// CALL-1, one row per test.
describe('matchRoleCall: seed 000 §怎麼觸發', () => {
  it('西莉卡，幫我看這段 — display name at the start switches', () => {
    expect(matchRoleCall('西莉卡，幫我看這段', ROLES)).toEqual({
      roleId: 'SILICA01',
      matched: '西莉卡',
      via: 'name',
      marker: false,
      rest: '，幫我看這段',
    });
  });

  it('西莉卡在嗎 — a CJK name needs no separator', () => {
    expect(matchRoleCall('西莉卡在嗎', ROLES)).toMatchObject({ roleId: 'SILICA01', matched: '西莉卡', rest: '在嗎' });
  });

  it('@SILICA01 幫我看 — @ and the role ID', () => {
    expect(matchRoleCall('@SILICA01 幫我看', ROLES)).toMatchObject({ roleId: 'SILICA01', matched: '@SILICA01', via: 'id', marker: true });
  });

  it('@silica01 — the ID is case-insensitive', () => {
    expect(matchRoleCall('@silica01 在嗎', ROLES)).toMatchObject({ roleId: 'SILICA01', matched: '@silica01', via: 'id' });
  });

  it('@小珪 ... — an alias from the identity frontmatter', () => {
    expect(matchRoleCall('@小珪 幫我看一下', ROLES)).toMatchObject({ roleId: 'SILICA01', matched: '@小珪', via: 'alias', marker: true });
  });

  it('小珪，… — an alias without @ also switches', () => {
    expect(matchRoleCall('小珪，在嗎', ROLES)).toMatchObject({ roleId: 'SILICA01', via: 'alias', marker: false });
  });

  it('剛剛西莉卡說的方法不錯 — a name in mid-sentence does not switch', () => {
    expect(matchRoleCall('剛剛西莉卡說的方法不錯', ROLES)).toBeUndefined();
  });

  it('silica01x 是什麼 — an ASCII name followed by a letter or digit is another word', () => {
    expect(matchRoleCall('silica01x 是什麼', ROLES)).toBeUndefined();
    expect(matchRoleCall('silica012 是什麼', ROLES)).toBeUndefined();
    // …while the same name followed by a space or CJK text is a call.
    expect(matchRoleCall('silica01 是什麼', ROLES)).toMatchObject({ roleId: 'SILICA01', via: 'id' });
    expect(matchRoleCall('silica01在嗎', ROLES)).toMatchObject({ roleId: 'SILICA01' });
  });
});

describe('matchRoleCall: overlaps and markers', () => {
  it('longest name wins: 小豹子 goes to 小豹子, not 小豹', () => {
    expect(matchRoleCall('小豹子，幫我看', ROLES)).toMatchObject({ roleId: 'LEOPARDCUB01', matched: '小豹子' });
    expect(matchRoleCall('小豹，幫我看', ROLES)).toMatchObject({ roleId: 'LEOPARD01', matched: '小豹' });
    // Order of the roles does not matter.
    expect(matchRoleCall('小豹子在嗎', [LEOPARD_CUB, LEOPARD])).toMatchObject({ roleId: 'LEOPARDCUB01' });
    expect(matchRoleCall('小豹子在嗎', [LEOPARD, LEOPARD_CUB])).toMatchObject({ roleId: 'LEOPARDCUB01' });
  });

  it('結衣 vs 結衣服: by default the name at the start switches; markerOnly only @name', () => {
    expect(matchRoleCall('結衣服要洗嗎', ROLES)).toMatchObject({ roleId: 'YUI01' });
    expect(matchRoleCall('結衣服要洗嗎', ROLES, { markerOnly: true })).toBeUndefined();
    expect(matchRoleCall('結衣，在嗎', ROLES, { markerOnly: true })).toBeUndefined();
    expect(matchRoleCall('@結衣 在嗎', ROLES, { markerOnly: true })).toMatchObject({ roleId: 'YUI01', marker: true });
    expect(matchRoleCall('@YUI01 在嗎', ROLES, { markerOnly: true })).toMatchObject({ roleId: 'YUI01', via: 'id' });
  });

  it('leading whitespace and a full-width ＠ are handled', () => {
    expect(matchRoleCall('  \n西莉卡在嗎', ROLES)).toMatchObject({ roleId: 'SILICA01' });
    expect(matchRoleCall('\u3000西莉卡在嗎', ROLES)).toMatchObject({ roleId: 'SILICA01' });
    expect(matchRoleCall('＠小珪 幫我', ROLES)).toMatchObject({ roleId: 'SILICA01', matched: '＠小珪', marker: true });
    expect(matchRoleCall('  ＠西莉卡', ROLES, { markerOnly: true })).toMatchObject({ roleId: 'SILICA01', rest: '' });
  });

  it('ASCII display names and aliases are case-insensitive and obey the word rule', () => {
    expect(matchRoleCall('muse, any ideas?', ROLES)).toMatchObject({ roleId: 'MUSE01', via: 'name' });
    expect(matchRoleCall('Inspiration please', ROLES)).toMatchObject({ roleId: 'MUSE01', via: 'alias' });
    expect(matchRoleCall('museum hours?', ROLES)).toBeUndefined();
  });

  it('a name shared by two roles is ambiguous and does not switch; a display name beats an alias', () => {
    const twin: CallableRole = { id: 'TWIN01', name: '西莉卡', aliases: [] };
    expect(matchRoleCall('西莉卡在嗎', [SILICA, twin])).toBeUndefined();
    expect(matchRoleCall('@TWIN01 在嗎', [SILICA, twin])).toMatchObject({ roleId: 'TWIN01' });
    const aliasClash: CallableRole = { id: 'OTHER01', name: '別人', aliases: ['西莉卡'] };
    expect(matchRoleCall('西莉卡在嗎', [aliasClash, SILICA])).toMatchObject({ roleId: 'SILICA01', via: 'name' });
  });

  it('ignores empty prompts, a bare @, and empty aliases', () => {
    expect(matchRoleCall('', ROLES)).toBeUndefined();
    expect(matchRoleCall('   ', ROLES)).toBeUndefined();
    expect(matchRoleCall('@', ROLES)).toBeUndefined();
    expect(matchRoleCall('幫我看', [{ id: 'X01', name: '西莉卡', aliases: ['', '  '] }])).toBeUndefined();
  });

  it('couldBeCall rejects without names only what markerOnly rules out', () => {
    expect(couldBeCall('hello', { markerOnly: true })).toBe(false);
    expect(couldBeCall(' ＠x', { markerOnly: true })).toBe(true);
    expect(couldBeCall('hello')).toBe(true);
    expect(couldBeCall(' \n')).toBe(false);
  });
});
