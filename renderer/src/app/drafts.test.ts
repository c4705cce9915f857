import { beforeEach, describe, expect, it } from 'vitest';
import { clearDraft, readDraft } from './drafts.js';

// No DOM here: a Map-backed sessionStorage on a bare window is all drafts.ts touches.
const items = new Map<string, string>();
const sessionStorage = {
  getItem: (key: string) => items.get(key) ?? null,
  setItem: (key: string, value: string) => void items.set(key, value),
  removeItem: (key: string) => void items.delete(key),
};
beforeEach(() => {
  items.clear();
  (globalThis as { window?: unknown }).window = { sessionStorage };
});

describe('kept drafts', () => {
  it('gives a draft back only for the base it was made from, and drops a stale one', () => {
    sessionStorage.setItem('kioku.draft.facts', JSON.stringify({ base: '- 舊\n', value: '- 舊\n- 新打的\n' }));
    expect(readDraft('facts', '- 別處改過\n')).toBeUndefined();
    expect(sessionStorage.getItem('kioku.draft.facts')).toBeNull();
    sessionStorage.setItem('kioku.draft.facts', JSON.stringify({ base: '- 舊\n', value: '- 舊\n- 新打的\n' }));
    expect(readDraft('facts', '- 舊\n')).toBe('- 舊\n- 新打的\n');
    clearDraft('facts');
    expect(readDraft('facts', '- 舊\n')).toBeUndefined();
  });

  it('drops what it cannot read instead of throwing', () => {
    sessionStorage.setItem('kioku.draft.journal', '{not json');
    expect(readDraft('journal', { text: '', tags: '' })).toBeUndefined();
    expect(sessionStorage.getItem('kioku.draft.journal')).toBeNull();
  });
});
