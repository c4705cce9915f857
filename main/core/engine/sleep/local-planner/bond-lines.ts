import { RECIPROCATED, matchForm } from '../../../platform/text/cue-words.js';
import { clip } from '../../../platform/text/turn-text.js';
import type { PlanBond } from '../sleep-plan.js';
import type { ItemAnalysis } from './analyse-batch.js';
import { firstQuote } from './item-parts.js';

/**
 * MEM-7 bonds for one new emotional or warm memory: the user's own words or the role's real
 * feeling, one line, with a direction — never a paraphrase ("使用者表達想念" is exactly the loss
 * BONDS.md exists to prevent, MEM-7).
 *
 * Relationship talk keeps both sides (CAP-4): the user's words AND the
 * role's answer each get their line — user→role (mutual when the role answered in kind, as
 * capture marks it) and role→user. Capture clips bond text to 160 characters; so does this, so
 * the line capture already appended is the same words and BONDS.md does not take it twice
 * (appendBond: "the same words already in the file … are not added again").
 */
const BOND_CHARS = 160;

function line(text: string): string {
  return clip(text.replace(/\s+/gu, ' '), BOND_CHARS);
}

export function bondsFor(source: ItemAnalysis): PlanBond[] {
  return bondLines(source).filter((bond) => bond.text.trim());
}

function bondLines(source: ItemAnalysis): PlanBond[] {
  const { parts, item } = source;
  const said = parts.userWords.length ? line(parts.userWords.join(' ')) : '';
  const answer = parts.roleWords.length ? line(parts.roleWords.join(' ')) : '';
  const mutual = Boolean(answer) && RECIPROCATED.test(matchForm(answer));
  const bonds: PlanBond[] = [];
  if (source.relationshipTalk) {
    if (said) bonds.push({ direction: mutual ? 'mutual' : 'user-to-role', text: said, source: item.id });
    if (answer) bonds.push({ direction: 'role-to-user', text: answer, source: item.id });
    if (bonds.length) return bonds;
  }
  if (said) return [{ direction: 'user-to-role', text: said, source: item.id }];
  // No user words: the memory is the role's own feeling, or a shared moment ("我們一起…").
  const summary = item.summary.trim();
  const words = line(firstQuote(summary) ?? summary);
  if (!words) return [];
  const direction =
    /^(?:角色|the role)/iu.test(summary) || (answer && !said)
      ? 'role-to-user'
      : /我們|一起|互相|彼此|\bwe\b|together/iu.test(summary)
        ? 'mutual'
        : 'user-to-role';
  return [{ direction, text: answer && direction === 'role-to-user' ? answer : words, source: item.id }];
}
