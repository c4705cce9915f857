// In test/, not next to dsh-usage.ts: it compares with main/core, which the renderer's type-check (DOM only) cannot load.
import { describe, expect, it } from 'vitest';
import { measureFacts, measureProjectMemory } from '../../main/core/store/notes/notes-limits.js';
import { measureFactsText, measureProjectMemoryText, usageLevel } from '../../renderer/src/views/facts/notes-usage.js';

/** The editor's counters must agree with what main checks on save, or Save would lie. */
const SAMPLES = [
  '',
  '\n',
  'a',
  'a\n',
  'a\nb',
  'a\nb\n',
  'a\n\n',
  'a\r\nb\r\n',
  '  使用者住在台北  \n',
  '記'.repeat(2667),
  '記'.repeat(2666) + '\n',
  '🐆 emoji 與 𠀋 擴充字\n',
  Array.from({ length: 100 }, (_, i) => `第 ${i} 行`).join('\n'),
  Array.from({ length: 101 }, (_, i) => `第 ${i} 行`).join('\n') + '\n',
  '\r\n\r\n\r\n',
];

describe('the editor counts as main does', () => {
  it.each(SAMPLES.map((text) => [JSON.stringify(text).slice(0, 40), text]))('FACT.md: %s', (_name, text) => {
    expect(measureFactsText(text)).toEqual(measureFacts(text));
  });

  it.each(SAMPLES.map((text) => [JSON.stringify(text).slice(0, 40), text]))('MEMORY.md: %s', (_name, text) => {
    expect(measureProjectMemoryText(text)).toEqual(measureProjectMemory(text));
  });

  it('turns warning at 90 % and error above the limit', () => {
    expect(usageLevel(89, 100)).toBe('ok');
    expect(usageLevel(90, 100)).toBe('near');
    expect(usageLevel(100, 100)).toBe('near');
    expect(usageLevel(101, 100)).toBe('over');
  });
});
