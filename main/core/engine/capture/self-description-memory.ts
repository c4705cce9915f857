import { IDENTITY_RELEVANCE } from '../../store/memory/identity-memory.js';
import type { CondensedMemory } from './capture-types.js';
import { selfDescriptionGist, selfDescriptionOf } from './self-description.js';

/**
 * Issue 12, failure 3: the memory the local condenser writes when the user (with consent) says who
 * they are — `important`, `semantic`, priority 5, relevance `identity` (context selection keeps it
 * inside the long-term budget), a gist that states the fact, and the user's own words as detail.
 */
export function selfDescriptionMemory(
  user: readonly { text: string }[],
  zh: boolean,
  explicit: boolean,
  replyGist: string,
): { memory: CondensedMemory; sentences: string[] } | undefined {
  const self = selfDescriptionOf(user.map((s) => s.text));
  if (!self) return undefined;
  const gist = selfDescriptionGist(self, zh);
  const words = self.sentences.join(' ');
  const tags = zh
    ? ['身分', ...(self.name ? [self.name] : []), ...(self.address && self.address !== self.name ? [self.address] : [])]
    : ['identity', ...(self.name ? [self.name] : [])];
  return {
    sentences: self.sentences,
    memory: {
      category: 'important',
      summary: gist,
      tags,
      priority: 5,
      relevance: [...(explicit ? ['explicit'] : []), IDENTITY_RELEVANCE],
      memory_type: 'semantic',
      keyPoints: [`${zh ? '使用者原話：' : "User's words: "}${words}`, `${zh ? '角色當時的回應：' : "Role's answer: "}${replyGist}`],
    },
  };
}
