import type { Memory } from '../../../../common/memory.js';
import { specificFieldsOf } from '../../store/projects/memory-project.js';
import { isBriefTagged } from './brief-block.js';
import { memoByList } from './list-memo.js';

/**
 * The memories a load reads one by one beyond the long-term items: the brief candidates and
 * the project-specific ones; a prepared load on disk may carry only these.
 * Design notes: docs/design-notes.md, "main/core/engine/context/load-special-memories.ts".
 */
export function loadSpecialMemories<M extends Memory>(memories: readonly M[]): readonly M[] {
  return memoByList(memories, 'load-special', () => {
    const special = memories.filter((memory) => isBriefTagged(memory) || specificFieldsOf(memory.extra) !== undefined);
    return Object.isFrozen(memories) ? Object.freeze(special) : special;
  });
}
