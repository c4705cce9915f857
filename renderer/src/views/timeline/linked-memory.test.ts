import { describe, expect, it } from 'vitest';
import { parseRoute } from '../../app/routes.js';
import { linkedMemory, memoryHref } from './linked-memory.js';

describe('links to one memory in the timeline', () => {
  it('round-trips a role and an id, whatever characters the id has, and routes to the timeline', () => {
    for (const ref of [
      { role: 'ENGINEER01', id: '20261130-140000-3f2a9c' },
      { role: 'MUSE01', id: '記憶 #1/a' },
    ]) {
      const href = memoryHref(ref);
      expect(linkedMemory(href)).toEqual(ref);
      expect(parseRoute(href)).toEqual({ view: 'timeline' });
    }
  });

  it('is no link without both parts, or on another view, or with a broken escape', () => {
    expect(linkedMemory('#/timeline')).toBeUndefined();
    expect(linkedMemory('#/timeline/ENGINEER01')).toBeUndefined();
    expect(linkedMemory('#/sleep/ENGINEER01/x')).toBeUndefined();
    expect(linkedMemory('#/timeline/ENGINEER01/%E0%A4%A')).toBeUndefined();
  });
});
