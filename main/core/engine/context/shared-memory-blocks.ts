import { textBlock, type ContextBlock, EMPTY_BLOCK } from './context-block.js';
import { say, type ContextLanguage } from '../../platform/text/context-language.js';

/**
 * The notes layers (DSH-1…3): global facts, project memory and the journal pointer, the
 * user's text injected as is, never as a template (DSH-7) and never cut (CTX-3).
 * Design notes: docs/design-notes.md, "main/core/engine/context/shared-memory-blocks.ts".
 */

/** DSH-1: `<memory home>/FACT.md`, shared by every role, main sessions only. */
export function factsBlock(text: string | undefined, file: string, language: ContextLanguage): ContextBlock {
  const body = text?.trim();
  if (!body) return EMPTY_BLOCK;
  return textBlock(
    [
      say(language, `## 全域事實（${file}，所有角色共用）`, `## Global facts (${file}, shared by every role)`),
      body,
      say(
        language,
        '（跨專案穩定的事實；寫入上限 100 行且 8000 位元組，以 `kioku facts update` 整篇更新。只屬於某個專案的內容寫進該專案的 MEMORY.md。）',
        '(Facts that hold across projects; at most 100 lines and 8000 bytes, rewritten whole with `kioku facts update`. Anything about one project belongs in its MEMORY.md.)',
      ),
    ].join('\n\n'),
  );
}

/** What stands in for FACT.md when the load had no room for it. */
export function factsPointerBlock(file: string, language: ContextLanguage): ContextBlock {
  return textBlock(
    say(
      language,
      `全域事實 ${file} 這次因篇幅沒有注入；需要時用 \`kioku facts read\` 讀取。`,
      `Global facts (${file}) were left out of this load for room; \`kioku facts read\` shows them.`,
    ),
  );
}

export interface ProjectMemory {
  /** `<cwd>/MEMORY.md` */
  path: string;
  text: string;
}

/** DSH-2: the project's own MEMORY.md, when it exists (it is never created unasked). */
export function projectMemoryBlock(project: ProjectMemory | undefined, language: ContextLanguage): ContextBlock {
  const body = project?.text.trim();
  if (!project || !body) return EMPTY_BLOCK;
  return textBlock(
    [
      say(language, `## 專案記憶（${project.path}）`, `## Project memory (${project.path})`),
      body,
      say(
        language,
        '（本專案的約定與事實；上限 8000 字元，以 `kioku project-memory update` 整篇更新；更長的流水帳寫進日誌。）',
        "(This project's conventions and facts; at most 8000 characters, rewritten whole with `kioku project-memory update`; longer running notes go to the journal.)",
      ),
    ].join('\n\n'),
  );
}

export function projectMemoryPointerBlock(project: ProjectMemory, language: ContextLanguage): ContextBlock {
  return textBlock(
    say(
      language,
      `專案記憶 ${project.path} 這次因篇幅沒有注入；需要時用 \`kioku project-memory read\` 讀取。`,
      `Project memory (${project.path}) was left out of this load for room; \`kioku project-memory read\` shows it.`,
    ),
  );
}

/**
 * DSH-3: the journal is never injected (the notes skill's 0.2.0 stopped paying for its last 6 entries
 * every turn); one line keeps the role from forgetting it has a history: how many entries exist and when to search.
 */
export function journalPointerBlock(entries: number, language: ContextLanguage): ContextBlock {
  return textBlock(
    say(
      language,
      `日誌（JOURNAL.jsonl）有 ${entries} 筆，正文不注入。覺得「以前可能聊過／踩過坑」時，用 \`kioku journal search "<關鍵詞>"\` 查；一次性的事件筆記用 \`kioku journal append --text "<內容>"\` 記下。`,
      `The journal (JOURNAL.jsonl) holds ${entries} entries, not injected. When "we may have discussed this before", \`kioku journal search "<keywords>"\` finds them; one-off notes go in with \`kioku journal append --text "<note>"\`.`,
    ),
  );
}
