/**
 * CTX-3: when the load does not fit, the lowest-value blocks give way first, each as little
 * as needed and always by whole items; the two notes files are replaced whole by a pointer.
 * Design notes: docs/design-notes.md, "main/core/engine/context/shrink-to-fit.ts".
 */
export interface Budgets {
  /** ROLE_LOAD_LIMIT */
  memory: number;
  /** A cap on the summary part of the long-term block; undefined: none. */
  digest: number | undefined;
  inbox: number;
  bonds: number;
  dialog: number;
  /** false: FACT.md is replaced by a pointer. */
  facts: boolean;
  /** false: MEMORY.md is replaced by a pointer. */
  project: boolean;
  /** false: the peers list is left out. */
  peers: boolean;
}

export type ShrinkableBudget = 'dialog' | 'digest' | 'bonds' | 'memory' | 'inbox';

export interface Trial {
  fits: boolean;
  /** What a shrinkable budget's block takes up now. */
  lengths(name: ShrinkableBudget): number;
}

type Step = { budget: ShrinkableBudget; floor: number } | { drop: 'project' | 'facts' | 'peers' };

/**
 * Floors are 1, not 0: a budget of 0 means "turned off by the user" and counts nothing, while a
 * block squeezed to nothing still counts every item it left out. The inbox keeps enough room for
 * the start of its newest item (CTX-5: the newest item is always kept).
 */
const INBOX_FLOOR = 600;
const LADDER: readonly Step[] = [
  { budget: 'dialog', floor: 1 },
  { budget: 'digest', floor: 0 },
  { budget: 'bonds', floor: 1 },
  { budget: 'memory', floor: 1 },
  { budget: 'inbox', floor: INBOX_FLOOR },
  { drop: 'project' },
  { drop: 'facts' },
  { drop: 'peers' },
];

/**
 * The largest budgets, step by step down the ladder, with which `trial` fits. A step that cannot
 * make the load fit on its own goes to its floor and the next one is tried; the step that can is
 * set by binary search to the largest value that still fits. Then the steps squeezed on the way
 * get back what room is left, most valuable first — dropping a whole file often frees more than
 * the earlier steps needed. When even the last step is not enough, the smallest budgets are
 * returned (the caller then needs more parts).
 */
export function shrinkToFit(initial: Budgets, trial: (budgets: Budgets) => Trial): Budgets {
  let budgets = initial;
  let current = trial(budgets);
  if (current.fits) return budgets;
  const squeezed: Step[] = [];
  for (const step of LADDER) {
    if ('drop' in step) {
      if (!budgets[step.drop]) continue;
      budgets = { ...budgets, [step.drop]: false };
      current = trial(budgets);
      if (current.fits) return restore(budgets, squeezed, initial, trial);
      squeezed.push(step);
      continue;
    }
    const used = current.lengths(step.budget);
    const floor = Math.min(step.floor, used);
    if (used <= floor) continue;
    const atFloor = trial(setBudget(budgets, step.budget, floor));
    if (!atFloor.fits) {
      budgets = setBudget(budgets, step.budget, floor);
      current = atFloor;
      squeezed.push(step);
      continue;
    }
    return restore(largestFitting(budgets, step.budget, floor, used, trial), squeezed, initial, trial);
  }
  return budgets;
}

function setBudget(budgets: Budgets, name: ShrinkableBudget, value: number | undefined): Budgets {
  return { ...budgets, [name]: value };
}

/** Binary search: `low` fits, `high` does not; the largest value between that fits. */
function largestFitting(budgets: Budgets, name: ShrinkableBudget, low: number, high: number, trial: (budgets: Budgets) => Trial): Budgets {
  let fits = low;
  let tooBig = high;
  while (tooBig - fits > 1) {
    const middle = Math.floor((fits + tooBig) / 2);
    if (trial(setBudget(budgets, name, middle)).fits) fits = middle;
    else tooBig = middle;
  }
  return setBudget(budgets, name, fits);
}

/** Give squeezed steps back as much as still fits, the most valuable (last squeezed) first. */
function restore(budgets: Budgets, squeezed: readonly Step[], initial: Budgets, trial: (budgets: Budgets) => Trial): Budgets {
  let result = budgets;
  for (const step of [...squeezed].reverse()) {
    if ('drop' in step) {
      const back = { ...result, [step.drop]: true };
      if (trial(back).fits) result = back;
      continue;
    }
    const name = step.budget;
    const uncapped = setBudget(result, name, initial[name]);
    if (trial(uncapped).fits) {
      result = uncapped;
      continue;
    }
    // The summary cap starts uncapped (undefined): its ceiling is what the summaries take then.
    const ceiling = initial[name] ?? trial(uncapped).lengths(name);
    const floor = result[name] ?? 0;
    if (ceiling > floor) result = largestFitting(result, name, floor, ceiling, trial);
  }
  return result;
}
