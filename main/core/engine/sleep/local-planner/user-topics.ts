import { matchForm } from '../../../platform/text/cue-words.js';
import type { InboxItem } from '../sleep-plan.js';
import { topicsOf } from './existing-index.js';
import type { ItemParts } from './item-parts.js';

/**
 * Issue 12 (PM-3, seed 001 §候選規則): the topics an inbox item counts for R2 are the ones the user
 * talked about. An item's tags may come from the role's reply — older captures took tags from the
 * whole turn, and a model condenser may too — and a role that keeps saying 「便當」 about the
 * user's lunch must not turn two chats into a repeated interest. So a tag is a topic only when its
 * words appear in what the user said: the labelled user lines, else the summary (capture quotes the
 * user there), never the role's lines.
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
