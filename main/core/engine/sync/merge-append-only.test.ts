import { describe, expect, it } from 'vitest';
import { BONDS_HEADER } from '../../store/memory/bonds-reader.js';
import { mergeBonds, mergeDigests, mergeJournal } from './merge-append-only.js';
import { mergeStateJson } from './merge-state.js';

const bonds = (...lines: string[]) => `${BONDS_HEADER}\n${lines.join('\n')}\n`;

describe('append-only files merged by union in order', () => {
  it('BONDS.md: both sides’ new bonds, oldest first, the same words once, a trimmed bond stays gone', () => {
    const base = bonds('- 2026-12-01 09:00 [相互] 舊的', '- 2026-12-01 10:00 [相互] 共同');
    const ours = bonds('- 2026-12-01 10:00 [相互] 共同', '- 2026-12-02 08:00 [使用者→角色] 我方', '- 2026-12-02 11:00 [相互] 兩邊都寫了');
    const theirs = bonds(
      '- 2026-12-01 09:00 [相互] 舊的',
      '- 2026-12-01 10:00 [相互] 共同',
      '- 2026-12-02 09:00 [角色→使用者] 對方',
      '- 2026-12-02 11:05 [相互]  兩邊都寫了 ',
    );
    const merged = mergeBonds(base, ours, theirs);
    const lines = merged.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toEqual([
      '- 2026-12-01 10:00 [相互] 共同',
      '- 2026-12-02 08:00 [使用者→角色] 我方',
      '- 2026-12-02 09:00 [角色→使用者] 對方',
      '- 2026-12-02 11:00 [相互] 兩邊都寫了',
    ]);
    expect(merged.startsWith('# 關係史')).toBe(true);
  });

  it('DIGESTS.md: newest first, both sides’ entries', () => {
    const head = '# 整理摘要（DIGESTS）\n';
    const entry = (t: string, s: string) => `## ${t}\n${s}\n- applied: created 1\n`;
    const base = `${head}\n${entry('2026/12/01 03:00:00', '基準')}`;
    const ours = `${head}\n${entry('2026/12/02 03:00:00', '桌機')}\n${entry('2026/12/01 03:00:00', '基準')}`;
    const theirs = `${head}\n${entry('2026/12/02 02:00:00', '筆電')}\n${entry('2026/12/01 03:00:00', '基準')}`;
    const merged = mergeDigests(base, ours, theirs);
    expect([...merged.matchAll(/^## (.*)$/gm)].map((m) => m[1])).toEqual([
      '2026/12/02 03:00:00',
      '2026/12/02 02:00:00',
      '2026/12/01 03:00:00',
    ]);
  });

  it('JOURNAL.jsonl: every line of both sides, by time', () => {
    const line = (ts: string, text: string) => JSON.stringify({ ts, tags: [], text });
    const base = `${line('2026-12-01T09:00:00+08:00', 'a')}\n`;
    const ours = `${base}${line('2026-12-02T10:00:00+08:00', 'ours')}\n`;
    const theirs = `${base}${line('2026-12-02T09:00:00+08:00', 'theirs')}\nnot json\n`;
    expect(mergeJournal(base, ours, theirs).trim().split('\n')).toEqual([
      line('2026-12-01T09:00:00+08:00', 'a'),
      line('2026-12-02T09:00:00+08:00', 'theirs'),
      'not json',
      line('2026-12-02T10:00:00+08:00', 'ours'),
    ]);
  });
});

describe('state.json merged field by field', () => {
  it('adds up each side’s counts, keeps the latest times and the earliest first activity, the digest of the latest sleep', () => {
    const base = JSON.stringify({
      total_turns: 10,
      active_days: 2,
      last_sleep: '2026-12-01T03:00:00+08:00',
      last_sleep_digest: 'base',
      first_activity: '2026-11-01T00:00:00+08:00',
      personal_memory_consent: 'unknown',
      custom: 1,
    });
    const ours = JSON.stringify({
      total_turns: 13,
      active_days: 3,
      last_sleep: '2026-12-02T03:00:00+08:00',
      last_sleep_digest: 'desk',
      first_activity: '2026-11-01T00:00:00+08:00',
      personal_memory_consent: 'accepted',
      custom: 1,
    });
    const theirs = JSON.stringify({
      total_turns: 15,
      active_days: 2,
      last_sleep: '2026-12-02T02:00:00+08:00',
      last_sleep_digest: 'laptop',
      first_activity: '2026-10-30T00:00:00+08:00',
      personal_memory_consent: 'declined',
      custom: 2,
    });
    expect(JSON.parse(mergeStateJson(base, ours, theirs))).toEqual({
      total_turns: 18,
      active_days: 3,
      last_sleep: '2026-12-02T03:00:00+08:00',
      last_sleep_digest: 'desk',
      first_activity: '2026-10-30T00:00:00+08:00',
      personal_memory_consent: 'declined',
      custom: 2,
    });
  });

  it('a side that is not JSON loses to the one that is', () => {
    expect(mergeStateJson('{}', '{"total_turns": 1}', 'broken')).toBe('{"total_turns": 1}');
  });
});
