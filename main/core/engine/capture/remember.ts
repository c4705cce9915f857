import type { KiokuConfig } from '../../platform/config/config.js';
import { parseCategoryInput, parseMemoryTypeInput, parsePriorityInput, requireText } from '../../store/memory/memory-input.js';
import { writeMemory, type WrittenMemory } from '../../store/memory/memory-writer.js';
import { rememberedProjectExtra } from './capture-project.js';

export interface RememberRequest {
  text: string;
  /** Default inbox: consolidated with the rest at the next sleep. */
  category?: string;
  type?: string;
  /** Default 4: the user asked for it explicitly, so it passes the full-text load threshold. */
  priority?: number | string;
  tags?: string[];
  /** A date, or a condition text such as 「本工作階段」 (MEM-8). */
  expires?: string;
  /** The project it was said in (git top level of the caller's cwd): recorded, and kept to it when it is that project's convention (issue 12). */
  project?: string;
}

/**
 * CAP-7: "remember this" writes a memory at once. Relevance always carries `explicit` (the user
 * asked), plus `temporary` when it expires (seed 000 §臨時授權會過期). Silent by design: callers
 * report nothing unless asked (seed 000: 補寫屬於內部處理).
 */
export async function rememberText(config: KiokuConfig, role: string, request: RememberRequest): Promise<WrittenMemory> {
  const text = requireText(request.text, 'the text to remember', 'pass it with --text "…"');
  const expires = request.expires?.trim() ?? '';
  const memoryType = request.type ? parseMemoryTypeInput(request.type) : undefined;
  return writeMemory(config, role, {
    category: parseCategoryInput(request.category ?? 'inbox'),
    body: text,
    memory_type: memoryType,
    priority: parsePriorityInput(request.priority ?? 4),
    tags: request.tags ?? [],
    expires,
    relevance: expires ? ['explicit', 'temporary'] : ['explicit'],
    declarative: 'explicit',
    // Encoded now, not yet consolidated, whatever folder it was put in.
    sleep_stage: 'encoding',
    extra: rememberedProjectExtra(request.project, text, memoryType),
  });
}
