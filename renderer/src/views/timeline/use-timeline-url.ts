import { useEffect } from 'react';
import { timelineHash, type TimelineUrlState } from './timeline-url.js';

/**
 * Issue 16: keep the timeline's state in the address (timeline-url.ts) as it changes, replacing
 * the history entry (filters are not steps to go back through) and only while on the timeline.
 */
export function useTimelineUrl(state: TimelineUrlState): void {
  const hash = timelineHash(state);
  useEffect(() => {
    if (!/^#\/timeline(?:\?|$)/u.test(window.location.hash) || window.location.hash === hash) return;
    window.history.replaceState(window.history.state, '', hash);
  }, [hash]);
}
