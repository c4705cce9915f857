// Type-only: bonds.ts also appends (through the redaction and script-guard packages), which the
// hook client must never load; the caller reads BONDS.md and hands the bonds in.
import type { Bond, BondDirection } from '../../store/memory/bonds.js';
import { EMPTY_BLOCK, fitWholeItems, moreNotShown, renderBlock, type ContextBlock } from './context-block.js';
import { say, type ContextLanguage } from '../../platform/text/context-language.js';

/**
 * BONDS (MEM-7): the words of both sides as they were said, newest first, with
 * their own budgets (ROLE_LOAD_BONDS_COUNT / ROLE_LOAD_BONDS_LIMIT) so that they are not crowded
 * out as memories pile up. MEM-7 requires the boundary to be written in the prompt as well as in code:
 * bonds keep closeness consistent and are never used to demand attention or count affection.
 */
export interface BondsBlockOptions {
  language: ContextLanguage;
  /** ROLE_LOAD_BONDS_COUNT; 0 turns the block off. */
  count: number;
  /** ROLE_LOAD_BONDS_LIMIT; 0 turns the block off. */
  limit: number;
}

const DIRECTION: Record<BondDirection, { zh: string; en: string }> = {
  'user-to-role': { zh: '使用者→角色', en: 'user→role' },
  'role-to-user': { zh: '角色→使用者', en: 'role→user' },
  mutual: { zh: '相互', en: 'mutual' },
};

function line(bond: Bond, language: ContextLanguage): string {
  const direction = bond.direction ? `[${language === 'zh-TW' ? DIRECTION[bond.direction].zh : DIRECTION[bond.direction].en}] ` : '';
  return `- ${bond.time ? `${bond.time} ` : ''}${direction}${bond.text}`;
}

/** `bonds` newest first, as `readBonds` returns them. */
export function bondsBlock(bonds: readonly Bond[], options: BondsBlockOptions): ContextBlock {
  if (options.count <= 0 || options.limit <= 0 || bonds.length === 0) return EMPTY_BLOCK;
  const candidates = bonds.slice(0, options.count);
  const beyondCount = bonds.length - candidates.length;
  const heading = say(
    options.language,
    '## 關係史（BONDS，雙方說過的原話與當時的感受，最新在前）\n用途是讓親近感一致而連續；不用來索求關注、比較互動頻率或用數字表達失落。',
    '## Bonds (words both sides actually said and felt; newest first)\nThey keep closeness consistent; never used to ask for attention, compare how often we talk, or put a number on missing someone.',
  );
  const note = (n: number) => moreNotShown(options.language, n, '則關係史', 'bonds');
  const items = candidates.map((bond) => line(bond, options.language));
  const fit = fitWholeItems({ heading, items, limit: options.limit, note, alreadyOmitted: beyondCount });
  return renderBlock(
    heading,
    fit.chosen.map((i) => items[i]!),
    fit.omitted + beyondCount,
    note,
    '\n',
    options.limit,
  );
}
