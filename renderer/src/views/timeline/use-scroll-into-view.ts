import { useEffect, type RefObject } from 'react';

/**
 * Issue 16: the detail panel sits beside (or, on a narrow window, below) the list, under the chart
 * and the filters, so it could open below the fold. When `key` changes and the panel's top is not
 * in the window, the page scrolls so that it is.
 */
export function useScrollIntoView(element: RefObject<HTMLElement | null>, key: string): void {
  useEffect(() => {
    const node = element.current;
    if (!node) return;
    const { top } = node.getBoundingClientRect();
    if (top < 0 || top > window.innerHeight * 0.6) node.scrollIntoView({ block: 'start', behavior: 'auto' });
  }, [element, key]);
}
