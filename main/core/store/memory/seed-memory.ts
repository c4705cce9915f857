import type { KiokuConfig } from '../../platform/config/config.js';
import { parseConsolidatedCategoryInput, requireText } from './memory-input.js';
import { writeMemory, type WrittenMemory } from './memory-writer.js';

export interface SeedRequest {
  category: string;
  summary: string;
  tags?: string[];
  /** Where the background came from (a URL or a title); kept as `source` and in the body. */
  source?: string;
  body?: string;
}

/**
 * MEM-9: a consolidated memory written directly, not via the inbox — the background a user
 * agreed to when a role was created (seed 000 §記憶: 新建角色時使用者同意建立的初始背景資料).
 * It skips sleep, so it is marked `sleep_stage: seed`, `retention_stage: long_term`.
 */
export async function seedMemory(config: KiokuConfig, role: string, request: SeedRequest): Promise<WrittenMemory> {
  const category = parseConsolidatedCategoryInput(request.category);
  const summary = requireText(request.summary, 'the summary', 'pass one sentence with --summary "…"');
  const source = request.source?.trim() ?? '';
  const text = request.body?.trim() || summary;
  const body = source && !text.includes(source) ? `${text}\n\n來源：${source}` : text;
  return writeMemory(config, role, {
    category,
    summary,
    body,
    tags: request.tags ?? [],
    retention_stage: 'long_term',
    sleep_stage: 'seed',
    extra: source ? { source } : {},
  });
}
