import { useEffect } from 'react';
import type { MemoryRef } from './MemoryDetailPanel.js';

/**
 * A link to one memory in the timeline: `#/timeline/<role>/<id>` opens the timeline on that
 * role with the memory's detail shown (the sleep history links what a consolidation touched).
 */
export function memoryHref(ref: MemoryRef): string {
  return `#/timeline/${encodeURIComponent(ref.role)}/${encodeURIComponent(ref.id)}`;
}

export function linkedMemory(hash: string): MemoryRef | undefined {
  const [view, role, id] = hash
    .replace(/^#\/?/, '')
    .split('/')
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return '';
      }
    });
  return view === 'timeline' && role && id ? { role, id } : undefined;
}

/** Calls `open` with the linked memory when the timeline is opened through such a link, and on each new one. */
export function useLinkedMemory(open: (ref: MemoryRef) => void): void {
  useEffect(() => {
    const follow = () => {
      const ref = linkedMemory(window.location.hash);
      if (ref) open(ref);
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
    // Only on mount and on hash changes: `open` sets state and need not be stable.
  }, []);
}
