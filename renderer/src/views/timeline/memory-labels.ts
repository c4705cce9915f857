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

/** Made once per language and kind: building an Intl formatter costs far more than using one,
 * and every row in view asks for two on each frame of a scroll. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(language: Language, kind: 'day' | 'dayYear' | 'time'): Intl.DateTimeFormat {
  const key = `${language}/${kind}`;
  let made = formatters.get(key);
  if (!made) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'time'
        ? { hour: '2-digit', minute: '2-digit', hour12: false }
        : kind === 'day'
          ? { month: 'short', day: 'numeric' }
          : { year: 'numeric', month: 'short', day: 'numeric' };
    made = new Intl.DateTimeFormat(language, options);
    formatters.set(key, made);
  }
  return made;
}

/** A short local date for a row: `11月30日` this year, `2025年11月30日` otherwise. */
export function rowDate(value: string, language: Language, now: Date): { day: string; time: string } | undefined {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  const sameYear = date.getFullYear() === now.getFullYear();
  return { day: formatter(language, sameYear ? 'day' : 'dayYear').format(date), time: formatter(language, 'time').format(date) };
}
