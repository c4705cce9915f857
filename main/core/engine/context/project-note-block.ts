import type { Memory } from '../../../../common/memory.js';
import { EMPTY_BLOCK, textBlock, type ContextBlock } from './context-block.js';
import { say, type ContextLanguage } from '../../platform/text/context-language.js';
import { PROJECT_MEMORY_MAX_CHARS, countProjectMemoryChars } from '../../store/notes/notes-limits.js';
import type { ProjectMemory } from './shared-memory-blocks.js';
import { waitingConventions } from './project-conventions.js';
import { groupDigits } from '../../platform/text/group-digits.js';

/**
 * The session note of issue 12: this project's conventions that a consolidation could not append
 * to its MEMORY.md because the file would pass its cap (DSH-2). Nothing is cut: the role is told
 * how many wait and asks the user to make room, so the user hears it instead of losing them.
 */
export function projectWaitingBlock(
  memories: readonly Memory[],
  project: string | undefined,
  projectMemory: ProjectMemory | undefined,
  language: ContextLanguage,
): ContextBlock {
  if (!project || !projectMemory) return EMPTY_BLOCK;
  const waiting = waitingConventions(memories, project);
  if (!waiting.length) return EMPTY_BLOCK;
  // Waiting for another reason (MEMORY.md was made after the last sleep): the next sleep adds them.
  const lines = waiting.map((memory) => `- ${memory.summary}`).join('\n');
  if (countProjectMemoryChars(`${projectMemory.text}\n${lines}\n`) <= PROJECT_MEMORY_MAX_CHARS) return EMPTY_BLOCK;
  const chars = groupDigits(countProjectMemoryChars(projectMemory.text));
  const max = groupDigits(PROJECT_MEMORY_MAX_CHARS);
  return textBlock(
    say(
      language,
      `## 等著寫進專案記憶的慣例\n本專案有 ${waiting.length} 條慣例還沒寫進 ${projectMemory.path}：它已有 ${chars}/${max} 字元，再加會超過上限，所以沒寫、也沒截斷。請在這次回覆中告訴使用者，請他整理出空間（或把長內容移到 journal），下次睡眠時會補上：\n${lines}`,
      `## Conventions waiting for the project memory\n${waiting.length} convention(s) of this project are not in ${projectMemory.path} yet: it has ${chars}/${max} characters and adding them would pass the limit, so nothing was written or cut. Tell the user in this reply and ask them to make room (or move long notes to the journal); the next sleep adds them:\n${lines}`,
    ),
  );
}
