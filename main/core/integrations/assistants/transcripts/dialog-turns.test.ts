import { describe, expect, it } from 'vitest';
import type { DialogTurn } from '../../../../../common/hook-events.js';
import { fitDialog, shortenText, TurnCollector } from './dialog-turns.js';

const u = (text: string): DialogTurn => ({ role: 'user', text });
const a = (text: string): DialogTurn => ({ role: 'assistant', text });

describe('fitDialog', () => {
  const dialog = [u('q1'), a('a1'), u('q2'), a('a2'), u('q3'), a('a3')];

  it('keeps everything that fits', () => {
    expect(fitDialog(dialog, { maxTurns: 10, maxChars: 100 })).toEqual(dialog);
  });

  it('drops the oldest whole pairs, never half a pair', () => {
    expect(fitDialog(dialog, { maxTurns: 5, maxChars: 100 })).toEqual([u('q2'), a('a2'), u('q3'), a('a3')]);
    expect(fitDialog(dialog, { maxTurns: 10, maxChars: 11 })).toEqual([u('q2'), a('a2'), u('q3'), a('a3')]);
  });

  it('counts an unanswered last question as its own group', () => {
    expect(fitDialog([...dialog, u('q4')], { maxTurns: 3, maxChars: 100 })).toEqual([u('q3'), a('a3'), u('q4')]);
  });

  it('drops an answer whose question was lost, unless it is all there is', () => {
    expect(fitDialog([a('orphan'), u('q'), a('a')], { maxTurns: 10, maxChars: 100 })).toEqual([u('q'), a('a')]);
    expect(fitDialog([a('orphan')], { maxTurns: 10, maxChars: 100 })).toEqual([a('orphan')]);
  });

  it('shortens the newest pair rather than handing over nothing', () => {
    const long = [u('短問題？'), a('第一句很長。'.repeat(50))];
    const fitted = fitDialog(long, { maxTurns: 8, maxChars: 60 });
    expect(fitted.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(fitted.reduce((sum, t) => sum + t.text.length, 0)).toBeLessThanOrEqual(60);
    expect(fitted[1]!.text.endsWith('。…')).toBe(true);
  });

  it('returns nothing for a zero budget', () => {
    expect(fitDialog(dialog, { maxTurns: 0, maxChars: 100 })).toEqual([]);
    expect(fitDialog(dialog, { maxTurns: 8, maxChars: 0 })).toEqual([]);
  });
});

describe('shortenText', () => {
  it('cuts at a sentence end and marks the cut', () => {
    expect(shortenText('One. Two three four five six.', 20)).toBe('One. Two three four…');
    expect(shortenText('第一句很長很長。第二句很長很長很長', 12)).toBe('第一句很長很長。…');
    expect(shortenText('short', 10)).toBe('short');
  });

  it('never splits an emoji', () => {
    const cut = shortenText('ab😀cd', 4);
    expect(cut).toBe('ab…');
  });
});

describe('TurnCollector', () => {
  it("merges one side's consecutive entries (arriving newest first) into one turn", () => {
    const c = new TurnCollector({ maxTurns: 8, maxChars: 1000 });
    for (const entry of [a('part 3'), a('part 2'), a('part 1'), u('question')])
      expect(c.add({ ...entry, timestamp: entry.text })).toBe(true);
    expect(c.result(false)).toEqual([
      { role: 'user', text: 'question', timestamp: 'question' },
      { role: 'assistant', text: 'part 1\n\npart 2\n\npart 3', timestamp: 'part 1' },
    ]);
  });

  it('asks to stop one whole turn past the turn budget', () => {
    const c = new TurnCollector({ maxTurns: 2, maxChars: 1000 });
    expect([a('a2'), u('q2'), a('a1')].map((e) => c.add(e))).toEqual([true, true, true]);
    expect(c.add(u('q1'))).toBe(false);
    expect(c.size).toBe(3);
  });

  it('drops a cut-off oldest assistant turn but keeps a user turn', () => {
    const c = new TurnCollector({ maxTurns: 8, maxChars: 1000 });
    [a('a2'), u('q2'), a('a1, second half')].forEach((e) => c.add(e));
    expect(c.result(true).map((t) => t.text)).toEqual(['q2', 'a2']);
    const d = new TurnCollector({ maxTurns: 8, maxChars: 1000 });
    [a('a2'), u('q2')].forEach((e) => d.add(e));
    expect(d.result(true).map((t) => t.text)).toEqual(['q2', 'a2']);
  });
});
