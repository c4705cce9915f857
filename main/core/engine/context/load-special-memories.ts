import type { Memory } from '../../../../common/memory.js';
import { specificFieldsOf } from '../../store/projects/memory-project.js';
import { isBriefTagged } from './brief-block.js';
import { memoByList } from './list-memo.js';

/**
 * The memories a load reads one by one, beyond the long-term items it selects and formats: the
 * brief candidates (brief-block.ts) and the project-specific ones (narrowing, waiting conventions).
 * Usually a handful; the blocks that read them see the same memories, in the same order, as in
 * the whole list — which is why a prepared load on disk may carry only these (prepared-load-file.ts).
 */
export function loadSpecialMemories<M extends Memory>(memories: readonly M[]): readonly M[] {
  return memoByList(memories, 'load-special', () => {
    const special = memories.filter((memory) => isBriefTagged(memory) || specificFieldsOf(memory.extra) !== undefined);
    return Object.isFrozen(memories) ? Object.freeze(special) : special;
  });
}
