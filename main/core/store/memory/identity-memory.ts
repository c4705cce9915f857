import type { Memory } from '../../../../common/memory.js';

/**
 * Issue 12, failure 3: a memory of who the user is — their name, how they want to be addressed,
 * their background — carries relevance `identity` (written by capture with consent, PRIV-3).
 * Context selection puts it first, so the long-term budget never cuts the user's name.
 */
export const IDENTITY_RELEVANCE = 'identity';

export function isIdentityMemory(memory: Pick<Memory, 'relevance'>): boolean {
  return memory.relevance.includes(IDENTITY_RELEVANCE);
}
