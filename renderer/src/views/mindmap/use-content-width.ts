import { useLayoutEffect, useState } from 'react';

/**
 * The width inside an element's padding, following resizes: pass the returned callback as the
 * element's ref. Undefined until the element is laid out.
 */
export function useContentWidth(): [(element: HTMLElement | null) => void, number | undefined] {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    if (!element) return;
    const measure = () => {
      const style = getComputedStyle(element);
      setWidth(Math.floor(element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, width];
}
