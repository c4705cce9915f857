import { ALL_CATEGORIES, MEMORY_TYPES, type MemoryCategory, type StoredMemory } from '../../../../common/memory.js';
import type { MemoryClarityName, MemoryTimeStats, MemoryTypeCounts } from '../../../../common/ui-contract.js';
import { formatLocalDate, parseLooseDate } from '../../platform/config/clock.js';
import { memoryClarity } from '../../store/memory/memory-clarity.js';

/**
 * The numbers behind the timeline's chart (memories by type per day and per week, by `created`
 * in local time) and its summary (by category, by PM-2 clarity). Weeks start on Monday and run
 * without gaps from the first memory's week to the last one's, so a quiet week shows as one.
 */
const DAY_MS = 86_400_000;

function emptyCounts(): MemoryTypeCounts {
  return Object.fromEntries(MEMORY_TYPES.map((type) => [type, 0])) as MemoryTypeCounts;
}

/** Local midnight of the Monday of a date's week. */
function mondayOf(date: Date): Date {
  const day = (date.getDay() + 6) % 7; // Monday 0 … Sunday 6
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() - day);
}

/** The next local Monday; built from calendar fields so a DST change never skips a week. */
function nextWeek(monday: Date): Date {
  return new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + 7);
}

export function memoryTimeStats(memories: readonly StoredMemory[], role: string | null, now: Date): MemoryTimeStats {
  const types = emptyCounts();
  const categories = Object.fromEntries(ALL_CATEGORIES.map((c) => [c, 0])) as Record<MemoryCategory, number>;
  const clarity: Record<MemoryClarityName, number> = { clear: 0, faded: 0, fuzzy: 0 };
  const days = new Map<string, MemoryTypeCounts>();
  const weeks = new Map<string, MemoryTypeCounts>();
  let first: Date | undefined;
  let last: Date | undefined;
  let undated = 0;
  for (const memory of memories) {
    types[memory.memory_type] += 1;
    categories[memory.category] += 1;
    if (memory.category !== 'inbox') clarity[memoryClarity(memory, now)] += 1;
    const created = parseLooseDate(memory.created);
    if (!created) {
      undated += 1;
      continue;
    }
    const day = formatLocalDate(created);
    const week = formatLocalDate(mondayOf(created));
    const dayCounts = days.get(day) ?? emptyCounts();
    dayCounts[memory.memory_type] += 1;
    days.set(day, dayCounts);
    const weekCounts = weeks.get(week) ?? emptyCounts();
    weekCounts[memory.memory_type] += 1;
    weeks.set(week, weekCounts);
    if (!first || created < first) first = created;
    if (!last || created > last) last = created;
  }
  const weekList: MemoryTimeStats['weeks'] = [];
  if (first && last) {
    // Bounded: a file dated in year 1 next to one from today would otherwise make 100,000 weeks.
    const end = mondayOf(last);
    let monday = mondayOf(first);
    if ((end.getTime() - monday.getTime()) / DAY_MS / 7 > 520) monday = new Date(end.getFullYear() - 10, end.getMonth(), end.getDate());
    monday = mondayOf(monday);
    for (; monday <= end; monday = nextWeek(monday)) {
      const start = formatLocalDate(monday);
      weekList.push({ start, counts: weeks.get(start) ?? emptyCounts() });
    }
  }
  return {
    role,
    total: memories.length,
    types,
    categories,
    clarity,
    days: [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, counts]) => ({ date, counts })),
    weeks: weekList,
    undated,
  };
}
