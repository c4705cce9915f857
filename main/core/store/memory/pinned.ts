import type { Memory } from '../../../../common/memory.js';

/**
 * Issue 16: a memory the user pinned (`pinned: true` in its frontmatter) is never forgotten,
 * never fades (PM-2) and is loaded ahead of every unpinned memory, so a budget cuts it last.
 * An expiry date still ends its injection (MEM-8): pinning keeps a memory, it does not extend a grant.
 */
export const PINNED = 'pinned';

export function isPinned(memory: Partial<Pick<Memory, 'extra'>>): boolean {
  const value = memory.extra?.[PINNED];
  return value === true || value === 'true';
}
