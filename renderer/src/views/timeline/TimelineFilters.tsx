import type { ReactNode } from 'react';
import { ALL_CATEGORIES, MEMORY_TYPES, type MemoryCategory, type MemoryType } from '../../../../common/memory.js';
import { MEMORY_CLARITIES, type MemoryClarityName } from '../../../../common/ui-contract.js';
import { useI18n } from '../../i18n/i18n.js';
import { ClarityMark } from './ClarityMark.js';
import { categoryLabel, typeLabel } from './memory-labels.js';

export interface ChipFilters {
  categories: MemoryCategory[];
  types: MemoryType[];
  clarity: MemoryClarityName[];
}

export const NO_CHIPS: ChipFilters = { categories: [], types: [], clarity: [] };

export function toggled<T>(list: T[], value: T): T[] {
  return list.includes(value) ? list.filter((item) => item !== value) : [...list, value];
}

function Chip({ pressed, onClick, children, className }: { pressed: boolean; onClick(): void; children: ReactNode; className?: string }) {
  return (
    <button
      type="button"
      className={`chip${pressed ? ' chip-on' : ''}${className ? ` ${className}` : ''}`}
      aria-pressed={pressed}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/**
 * Chips for category, memory type and clarity (APP-2 "filters by role/category/type/state"):
 * none pressed in a group = no filter by it; several = any of them.
 */
export function TimelineFilters({ value, onChange }: { value: ChipFilters; onChange(next: ChipFilters): void }) {
  const { t, language } = useI18n();
  const any = value.categories.length + value.types.length + value.clarity.length > 0;
  return (
    <div className="timeline-filters">
      <div className="chip-group" role="group" aria-labelledby="filter-category">
        <span id="filter-category" className="chip-group-label">
          {t('timeline.filter.category')}
        </span>
        {ALL_CATEGORIES.map((category) => (
          <Chip
            key={category}
            pressed={value.categories.includes(category)}
            onClick={() => onChange({ ...value, categories: toggled(value.categories, category) })}
          >
            {categoryLabel(category, language)}
          </Chip>
        ))}
      </div>
      <div className="chip-group" role="group" aria-labelledby="filter-type">
        <span id="filter-type" className="chip-group-label">
          {t('timeline.filter.type')}
        </span>
        {MEMORY_TYPES.map((type) => (
          <Chip
            key={type}
            className={`type-${type}`}
            pressed={value.types.includes(type)}
            onClick={() => onChange({ ...value, types: toggled(value.types, type) })}
          >
            <span className="type-dot" aria-hidden="true" />
            {typeLabel(type, language)}
          </Chip>
        ))}
      </div>
      <div className="chip-group" role="group" aria-labelledby="filter-clarity">
        <span id="filter-clarity" className="chip-group-label">
          {t('timeline.filter.clarity')}
        </span>
        {MEMORY_CLARITIES.map((clarity) => (
          <Chip
            key={clarity}
            pressed={value.clarity.includes(clarity)}
            onClick={() => onChange({ ...value, clarity: toggled(value.clarity, clarity) })}
          >
            <ClarityMark clarity={clarity} withText />
          </Chip>
        ))}
        {any ? (
          <button type="button" className="chip-clear" onClick={() => onChange(NO_CHIPS)}>
            {t('timeline.filter.clear')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
