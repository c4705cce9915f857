import { useEffect, useState } from 'react';

/** Below this width the navigation folds into a rail of icons (layout.css has the same figure). */
const NARROW = '(max-width: 899.98px)';

/** Whether the window is narrow, following resizes. */
export function useNarrowWindow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches);
  useEffect(() => {
    const query = window.matchMedia(NARROW);
    const follow = () => setNarrow(query.matches);
    follow();
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);
  return narrow;
}
