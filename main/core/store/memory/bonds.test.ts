import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { appendBond, BONDS_KEPT, bondsFile, parseBondLine, readBonds } from './bonds.js';

const ROLE = 'TESTER01';
let home: TempHome;
let config: KiokuConfig;
beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T21:15:00+08:00' });
  config = home.config();
});
afterEach(() => home.cleanup());

describe('appendBond (MEM-7)', () => {
  it('writes one readable line per bond with its direction, newest read first', async () => {
    await appendBond(config, ROLE, { text: '謝謝妳今天一直陪我除錯', direction: 'user-to-role' });
    await appendBond(config, ROLE, { text: '能幫上忙，我很開心', direction: 'role-to-user' });
    await appendBond(config, ROLE, { text: '約好下次一起看流星雨', direction: 'mutual' });
    const text = fs.readFileSync(bondsFile(home.memoryHome, ROLE), 'utf8');
    expect(text).toMatch(/^# 關係史/);
    expect(text).toMatch(/\n- \d{4}-\d{2}-\d{2} \d{2}:\d{2} \[使用者→角色\] 謝謝妳今天一直陪我除錯\n/);
    expect(text).toContain('[角色→使用者] 能幫上忙，我很開心');
    expect(text).toContain('[相互] 約好下次一起看流星雨');
    expect(readBonds(home.memoryHome, ROLE).map((b) => [b.direction, b.text])).toEqual([
      ['mutual', '約好下次一起看流星雨'],
      ['role-to-user', '能幫上忙，我很開心'],
      ['user-to-role', '謝謝妳今天一直陪我除錯'],
    ]);
    expect(readBonds(home.memoryHome, ROLE, 1)).toHaveLength(1);
  });

  it('never adds the same words twice, whatever the direction or spacing', async () => {
    expect((await appendBond(config, ROLE, { text: '我好想妳', direction: 'user-to-role' })).added).toBe(true);
    expect((await appendBond(config, ROLE, { text: '  我好想妳 ', direction: 'mutual' })).added).toBe(false);
    expect((await appendBond(config, ROLE, { text: '我好想你', direction: 'user-to-role' })).added).toBe(true);
    expect(readBonds(home.memoryHome, ROLE)).toHaveLength(2);
  });

  it('is redacted and script-guarded like every memory', async () => {
    const result = await appendBond(config, ROLE, { text: '我的邮箱 me@example.com\n以后常联系', direction: 'user-to-role' });
    expect(result.bond.text).toBe('我的郵箱 [REDACTED:email] 以後常聯繫');
    expect(readBonds(home.memoryHome, ROLE)[0]?.text).toBe('我的郵箱 [REDACTED:email] 以後常聯繫');
  });

  it(`keeps only the newest ${BONDS_KEPT}, and the header and hand-written prose`, async () => {
    const file = bondsFile(home.memoryHome, ROLE);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const old = Array.from({ length: BONDS_KEPT }, (_, i) => `- 2026-01-01 00:00 [相互] 舊的第 ${i} 句`);
    fs.writeFileSync(file, ['# 我們的關係史', '', '這段是使用者自己寫的說明。', '', ...old, ''].join('\n'));
    for (let i = 0; i < 5; i++) await appendBond(config, ROLE, { text: `新的第 ${i} 句`, direction: 'mutual' });
    const bonds = readBonds(home.memoryHome, ROLE);
    expect(bonds).toHaveLength(BONDS_KEPT);
    expect(bonds[0]?.text).toBe('新的第 4 句');
    expect(bonds.at(-1)?.text).toBe('舊的第 5 句');
    const text = fs.readFileSync(file, 'utf8');
    expect(text.startsWith('# 我們的關係史\n\n這段是使用者自己寫的說明。\n')).toBe(true);
    expect(text).not.toContain('舊的第 4 句');
  });
});

describe('parseBondLine: tolerant of hand edits', () => {
  it.each([
    ['- 2026-11-30 21:15 [使用者→角色] 謝謝', { time: '2026-11-30 21:15', direction: 'user-to-role', text: '謝謝' }],
    ['* 2026/11/30 【角色 -> 使用者】：我也很開心', { time: '2026/11/30', direction: 'role-to-user', text: '我也很開心' }],
    ['2026-11-30T21:15:00 (mutual) promise', { time: '2026-11-30T21:15:00', direction: 'mutual', text: 'promise' }],
    ['- 沒有時間也沒有方向的一句', { time: '', direction: null, text: '沒有時間也沒有方向的一句' }],
    ['- [備註] 括號不是方向時留在內文', { time: '', direction: null, text: '[備註] 括號不是方向時留在內文' }],
  ])('%s', (line, expected) => {
    expect(parseBondLine(line)).toEqual(expected);
  });

  it.each(['# 關係史', '<!-- comment -->', '', '一段說明文字', '- '])('ignores %j', (line) => {
    expect(parseBondLine(line)).toBeUndefined();
  });
});
