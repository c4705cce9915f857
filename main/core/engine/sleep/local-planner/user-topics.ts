import { matchForm } from '../../../platform/text/cue-words.js';
import type { InboxItem } from '../sleep-plan.js';
import { topicsOf } from './existing-index.js';
import type { ItemParts } from './item-parts.js';

/**
 * Issue 12 (PM-3): the topics an inbox item counts for R2 are the ones the user talked about.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/local-planner/user-topics.ts".
 */
export function userTopicsOf(item: Pick<InboxItem, 'summary' | 'tags'>, parts: Pick<ItemParts, 'userWords'>): string[] {
  const fallback = ROLE_SUMMARY.test(item.summary.trim()) ? '' : item.summary;
  const said = squash(matchForm(parts.userWords.length ? parts.userWords.join('\n') : fallback));
  return topicsOf(item.tags).filter((topic) => {
    const needle = squash(topic);
    return needle.length > 0 && said.includes(needle);
  });
}

/** Capture's summary of a turn without user text quotes the role (「角色當時的回應：…」). */
const ROLE_SUMMARY = /^(?:角色|role's answer)/iu;

function squash(text: string): string {
  return text.replace(/[^\p{L}\p{N}]+/gu, '');
}
