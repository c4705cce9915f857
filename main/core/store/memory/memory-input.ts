import { KiokuError } from '../../../../common/errors.js';
import {
  ALL_CATEGORIES,
  CATEGORIES,
  MEMORY_TYPES,
  isCategory,
  isMemoryType,
  type ConsolidatedCategory,
  type MemoryCategory,
  type MemoryType,
} from '../../../../common/memory.js';

/**
 * Checks for values a person typed (CLI flags, MCP arguments), with errors that name the value
 * and list what is allowed. Shared by remember, seed and the CLI so they all say the same thing.
 */
export function parseCategoryInput(value: string): MemoryCategory {
  const text = value.trim();
  if (isCategory(text)) return text;
  throw new KiokuError('BAD_USAGE', `category "${value}" is not one of ${ALL_CATEGORIES.join(', ')}`, {
    hint: 'e.g. --category important',
  });
}

export function parseConsolidatedCategoryInput(value: string): ConsolidatedCategory {
  const category = parseCategoryInput(value);
  if (category === 'inbox') {
    throw new KiokuError('BAD_USAGE', 'seed writes a consolidated memory, so its category cannot be inbox', {
      hint: `use one of ${CATEGORIES.join(', ')}; for an inbox item use \`kioku memory remember\``,
    });
  }
  return category;
}

export function parseMemoryTypeInput(value: string): MemoryType {
  const text = value.trim();
  if (isMemoryType(text)) return text;
  throw new KiokuError('BAD_USAGE', `memory type "${value}" is not one of ${MEMORY_TYPES.join(', ')}`, {
    hint: 'behaviour to change → preference; how it felt → emotional (seed 000 §情緒記憶不會被偏好吃掉)',
  });
}

export function parsePriorityInput(value: string | number): number {
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (Number.isInteger(n) && n >= 1 && n <= 5) return n;
  throw new KiokuError('BAD_USAGE', `priority "${value}" must be a whole number from 1 to 5`, { hint: 'e.g. --priority 4' });
}

/** `a,b`, `a，b` or `a、b` → ['a', 'b'] (the ways people write lists in zh-TW and English). */
export function parseListInput(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(/[,，、]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

export function requireText(value: string | undefined, what: string, hint: string): string {
  const text = (value ?? '').trim();
  if (text) return text;
  throw new KiokuError('BAD_USAGE', `${what} is empty`, { hint });
}
