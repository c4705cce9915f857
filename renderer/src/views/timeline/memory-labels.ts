import { CATEGORY_LABELS, MEMORY_TYPE_LABELS, type MemoryCategory, type MemoryType } from '../../../../common/memory.js';
import type { Language } from '../../i18n/i18n.js';

/**
 * Category and memory-type names come from common/memory.ts (MEM-2 names them in
 * zh-TW first), so the UI, the CLI and the files all say 重要 / 程序 the same way.
 */
export function categoryLabel(category: MemoryCategory, language: Language): string {
  const label = CATEGORY_LABELS[category];
  return language === 'en' ? label.en : label.zh;
}

export function typeLabel(type: MemoryType, language: Language): string {
  const label = MEMORY_TYPE_LABELS[type];
  return language === 'en' ? label.en : label.zh;
}

/** A short local date for a row: `11月30日` this year, `2025年11月30日` otherwise. */
export function rowDate(value: string, language: Language, now: Date): { day: string; time: string } | undefined {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  const sameYear = date.getFullYear() === now.getFullYear();
  const day = new Intl.DateTimeFormat(language, sameYear ? { month: 'short', day: 'numeric' } : { year: 'numeric', month: 'short', day: 'numeric' }).format(date);
  const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hour12: false }).format(date);
  return { day, time };
}
