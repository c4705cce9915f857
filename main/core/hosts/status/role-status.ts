import { ALL_CATEGORIES, MEMORY_TYPES, type MemoryCategory, type MemoryType } from '../../../../common/memory.js';
import { formatLocalIso, parseLooseDate } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { memoryClarity, type Clarity } from '../../store/memory/memory-clarity.js';
import { loadRoleMemories } from '../../store/memory/memory-layout.js';
import { readMemoryState } from '../../store/memory/memory-state.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';
import { lastInteraction } from '../../engine/schedule/last-interaction.js';
import type { RoleStatusView } from '../../../../common/ui-contract-notes-types.js';

/**
 * One role in `kioku status` (OPS-1, seed 000 §--status: 各分類記憶筆數、上次互動、上次整理與遺忘時間),
 * plus PM-2's clarity counts (consolidated memories only: inbox items are not long-term yet);
 * `covered`: served by the schedule (SLEEP-3). The same shape the UI receives, so it is defined
 * once, in the UI contract. Read-only: nothing here writes a file.
 */
export type RoleStatus = RoleStatusView;

/**
 * Seed 000 §情緒 self-check: "「記憶型態」若長期 `情緒 0`，而互動明顯帶有情感，就是上述某一道保護失效了".
 * A young role has few memories of any kind; warn once there are enough for a zero to mean something.
 */
export const EMOTIONAL_ZERO_WARN_AT = 10;

function iso(value: string | null): string | null {
  const date = parseLooseDate(value);
  return date ? formatLocalIso(date) : value;
}

export function roleStatus(config: KiokuConfig, id: string, options: { active: boolean; covered: boolean }): RoleStatus {
  const warnings: string[] = [];
  let name = id;
  let emoji = '';
  try {
    const role = readRoleDefinition(config.paths.roleHome, id);
    name = role.name;
    emoji = role.emoji;
  } catch (error) {
    warnings.push(`cannot read the role definition: ${(error as Error).message}`);
  }
  const { memories, problems } = loadRoleMemories(config.paths.memoryHome, id);
  for (const problem of problems) warnings.push(`cannot read ${problem.path}: ${problem.message}`);
  const categories = Object.fromEntries(ALL_CATEGORIES.map((c) => [c, 0])) as Record<MemoryCategory, number>;
  const types = Object.fromEntries(MEMORY_TYPES.map((t) => [t, 0])) as Record<MemoryType, number>;
  const clarity: Record<Clarity, number> = { clear: 0, faded: 0, fuzzy: 0 };
  const now = config.clock.now();
  for (const memory of memories) {
    categories[memory.category] += 1;
    types[memory.memory_type] += 1;
    if (memory.category !== 'inbox') clarity[memoryClarity(memory, now)] += 1;
  }
  const consolidated = memories.length - categories.inbox;
  if (types.emotional === 0 && consolidated >= EMOTIONAL_ZERO_WARN_AT) {
    warnings.push(
      `no emotional memories among ${consolidated} consolidated ones: if your conversations carry feelings, capture or consolidation is filing them as preferences or dropping them (seed 000 §情緒)`,
    );
  }
  const stateRead = readMemoryState(config.paths.memoryHome, id);
  warnings.push(...stateRead.problems);
  const last = lastInteraction(config, id);
  return {
    id,
    name,
    emoji,
    active: options.active,
    covered: options.covered,
    inbox: categories.inbox,
    memory: { categories, types, total: memories.length },
    clarity,
    lastInteraction: last ? formatLocalIso(last.at) : null,
    lastInteractionSource: last?.source ?? null,
    lastSleep: iso(stateRead.state.last_sleep),
    lastForget: iso(stateRead.state.last_forget),
    warnings,
  };
}
