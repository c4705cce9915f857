import type { ConsolidatedCategory, MemoryType } from '../../../../common/memory.js';

/**
 * How seed 001's long-term memory `type` maps onto Kioku's category and memory_type (MEM-2).
 * The types are the ones seed 001 §3「固化」and §2「逐一判斷候選」name; the table is the
 * documented choice of this importer:
 *
 * | seed 001 type | category  | memory_type | why                                                                     |
 * | ------------- | --------- | ----------- | ----------------------------------------------------------------------- |
 * | preference    | important | preference  | 反覆出現＝穩定偏好 (R2); seed 000 puts long-term preferences in 重要       |
 * | promise       | important | rule        | 承諾, salience ≥ 80, 不可遺忘: a rule the role keeps; priority 5          |
 * | boundary      | important | rule        | 界線, 不可遺忘: likewise                                                   |
 * | canon         | important | semantic    | 原作設定 (persona-anime), 不可遺忘: background fact; priority 5            |
 * | relationship  | important | semantic    | 對人的理解 (R5): who someone is to the role                                |
 * | event         | daily     | episodic    | 明確發生過的事件; with an `emotion:` anchor (R3) it is `emotional`         |
 * | fact          | other     | semantic    | a plain fact; kept or forgotten by its priority like any `other` memory |
 * | insight       | other     | semantic    | 被證實的推論 (§5 思維導圖)                                                 |
 * | anything else | other     | semantic    | the original type stays in the file (`type:`)                           |
 *
 * An `emotion:` anchor on any type adds `emotional` to relevance (MEM-6 warmth: sorted first,
 * exempt from forgetting) without changing the type the source chose (MEM-5: types never merge).
 */
interface TypeMapping {
  category: ConsolidatedCategory;
  memory_type: MemoryType;
  /** The seed's 不可遺忘 types (seed 001 §遺忘原則: boundary, promise, canon) are priority 5. */
  unforgettable?: boolean;
}

const TYPES: Record<string, TypeMapping> = {
  preference: { category: 'important', memory_type: 'preference' },
  promise: { category: 'important', memory_type: 'rule', unforgettable: true },
  boundary: { category: 'important', memory_type: 'rule', unforgettable: true },
  canon: { category: 'important', memory_type: 'semantic', unforgettable: true },
  relationship: { category: 'important', memory_type: 'semantic' },
  event: { category: 'daily', memory_type: 'episodic' },
  fact: { category: 'other', memory_type: 'semantic' },
  insight: { category: 'other', memory_type: 'semantic' },
};

const FALLBACK: TypeMapping = { category: 'other', memory_type: 'semantic' };

/**
 * Salience 0–100 (seed 001) → priority 1–5 (MEM-2), by the seed's own thresholds: ≥ 80 is
 * 不可遺忘 (5), ≥ 60 is R1's 固化門檻 (4), ≥ 40 survives `--forget 40` (3), below that the
 * seed lets it go (2, or 1 under 20). A missing salience is the middle, 3.
 */
export function priorityFromSalience(salience: number | undefined): number {
  if (salience === undefined || !Number.isFinite(salience)) return 3;
  if (salience >= 80) return 5;
  if (salience >= 60) return 4;
  if (salience >= 40) return 3;
  if (salience >= 20) return 2;
  return 1;
}

export interface MappedLongTerm {
  category: ConsolidatedCategory;
  memory_type: MemoryType;
  priority: number;
  relevance: string[];
}

export function mapLongTermType(type: string, salience: number | undefined, hasEmotion: boolean): MappedLongTerm {
  const mapping = TYPES[type.trim().toLowerCase()] ?? FALLBACK;
  const memory_type: MemoryType = hasEmotion && mapping.memory_type === 'episodic' ? 'emotional' : mapping.memory_type;
  const priority = mapping.unforgettable ? 5 : priorityFromSalience(salience);
  const relevance: string[] = [];
  if (hasEmotion) relevance.push('emotional');
  if (mapping.unforgettable) relevance.push('explicit');
  return { category: mapping.category, memory_type, priority, relevance };
}
