import { describe, expect, it } from 'vitest';
import { composeBrief, cutAtLineEnd, normalizeOutput } from './brief-text.js';

describe('cutAtLineEnd', () => {
  it('keeps text within the limit as it is', () => {
    expect(cutAtLineEnd('一\n二', 3)).toEqual({ text: '一\n二', cut: 0 });
  });

  it('cuts at the last line end inside the limit and counts what was left out', () => {
    const text = '第一行\n第二行很長很長\n第三行';
    const result = cutAtLineEnd(text, 8);
    expect(result.text).toBe('第一行');
    expect(result.cut).toBe(Array.from(text).length - 3);
  });

  it('counts characters, not bytes or UTF-16 units (CJK and emoji)', () => {
    const result = cutAtLineEnd('😀😀\n😀😀😀', 4);
    expect(result).toEqual({ text: '😀😀', cut: 4 });
  });

  it('cuts a single line longer than the limit at the limit', () => {
    expect(cutAtLineEnd('abcdefghij', 4)).toEqual({ text: 'abcd', cut: 6 });
  });

  it('a limit of 0 keeps nothing and says so', () => {
    expect(cutAtLineEnd('abc\ndef', 0)).toEqual({ text: '', cut: 7 });
  });
});

describe('normalizeOutput', () => {
  it('drops colour codes and control characters, unifies line ends, trims blank edges', () => {
    expect(normalizeOutput('\n\u001b[31m紅色\u001b[0m警告\r\n第二行  \r\n\u0007\n')).toBe('紅色警告\n第二行');
  });

  it('leaves silence silent', () => {
    expect(normalizeOutput(' \n\n\t\n')).toBe('');
  });
});

describe('composeBrief', () => {
  it('names every reporting script and the time, with a summary from the first line', () => {
    const brief = composeBrief(
      [
        { name: '10-disk.sh', text: '磁碟 / 使用率 95%', cut: 0 },
        { name: '20-ci.sh', text: 'CI 失敗', cut: 12 },
        { name: '30-slow.sh', text: '', trouble: '逾時 1 秒，已中止', cut: 0 },
      ],
      2000,
      '2026/12/01 06:00',
    );
    expect(brief.summary).toBe('晨間狀態檢查：磁碟 / 使用率 95%（另有 2 項）');
    expect(brief.body).toBe(
      [
        '晨間狀態檢查（2026/12/01 06:00），3 個檢查腳本有回報：',
        '',
        '## 10-disk.sh\n磁碟 / 使用率 95%',
        '',
        '## 20-ci.sh\nCI 失敗\n（以下截斷 12 字）',
        '',
        '## 30-slow.sh\n（逾時 1 秒，已中止）',
      ].join('\n'),
    );
    expect(brief.totalCut).toBe(0);
  });

  it('cuts the whole at the total limit, at a line end, and says how much', () => {
    const sections = [
      { name: 'a.sh', text: '甲'.repeat(30), cut: 0 },
      { name: 'b.sh', text: '乙'.repeat(30), cut: 0 },
    ];
    const brief = composeBrief(sections, 40, '2026/12/01 06:00');
    expect(brief.body).toContain('## a.sh\n' + '甲'.repeat(30));
    expect(brief.body).not.toContain('乙');
    expect(brief.totalCut).toBeGreaterThan(30);
    expect(brief.body).toContain(`（晨報合計超過 40 字，以下截斷 ${brief.totalCut} 字）`);
  });
});
