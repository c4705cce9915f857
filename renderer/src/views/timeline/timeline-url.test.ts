import { describe, expect, it } from 'vitest';
import { parseTimelineUrl, timelineHash, type TimelineUrlState } from './timeline-url.js';

describe('the timeline URL (issue 16: filters and the open memory survive a reload)', () => {
  it('round-trips every part, Chinese query included', () => {
    const state: TimelineUrlState = {
      role: 'ENGINEER01',
      categories: ['important', 'inbox'],
      types: ['procedural'],
      clarity: ['faded'],
      query: '部署 流程',
      forgotten: true,
      open: { role: 'ENGINEER01', id: 'm-deploy' },
    };
    const hash = timelineHash(state);
    expect(hash.startsWith('#/timeline?')).toBe(true);
    expect(parseTimelineUrl(hash)).toEqual(state);
  });

  it('is plain #/timeline with nothing set, and drops values it does not know', () => {
    expect(timelineHash(parseTimelineUrl('#/timeline'))).toBe('#/timeline');
    expect(parseTimelineUrl('#/timeline?role=../x&cat=attic,daily&type=rule,evil&open=bad/id')).toEqual({
      categories: ['daily'],
      types: ['rule'],
      clarity: [],
      query: '',
      forgotten: false,
    });
  });
});
