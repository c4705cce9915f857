import type { DialogTurn } from '../../../../common/hook-events.js';
import type { Memory } from '../../../../common/memory.js';
import type { Bond } from '../../store/memory/bonds.js';
import { inertList, inertText } from './inert-text.js';
import { memoByList } from './list-memo.js';
import type { ProjectMemory } from './shared-memory-blocks.js';

/**
 * The one place where what a load injects from files and transcripts is made inert (issue 14,
 * item 4; inert-text.ts says how). Role files are not touched.
 * Design notes: docs/design-notes.md, "main/core/engine/context/inert-input.ts".
 */

/** A memory with its injected texts made inert; the memory itself when none changed. */
function inertCopy<M extends Memory>(memory: M): M {
  const summary = inertText(memory.summary);
  const body = inertText(memory.body);
  const expires = inertText(memory.expires);
  const tags = inertList(memory.tags);
  if (summary === memory.summary && body === memory.body && expires === memory.expires && tags === memory.tags) return memory;
  return { ...memory, summary, body, expires, tags: [...tags] };
}

/**
 * Kept per memory object for the daemon, whose frozen lists share the objects of unchanged files
 * from one version to the next; the hook's fallback reads its files once, so it does not pay for
 * the bookkeeping.
 */
const inertCopies = new WeakMap<Memory, Memory>();

function keptInertCopy<M extends Memory>(memory: M): M {
  let copy = inertCopies.get(memory);
  if (copy === undefined) inertCopies.set(memory, (copy = inertCopy(memory)));
  return copy as M;
}

/** One memory with its injected texts made inert (itself when none changed), kept per object. */
export function inertMemory<M extends Memory>(memory: M): M {
  return keptInertCopy(memory);
}

function mapIfChanged<M extends Memory>(list: readonly M[], inert: (memory: M) => M): readonly M[] {
  let mapped: M[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const memory = list[i]!;
    const copy = inert(memory);
    if (copy !== memory) (mapped ??= list.slice(0, i)).push(copy);
    else mapped?.push(memory);
  }
  return mapped ?? list;
}

/**
 * Tell `inertMemories` that this frozen list holds inert copies already (`inertMemory` of each):
 * a prepared load on disk stores its inbox so (prepared-load-file.ts), like the item texts it
 * stores, which were made from inert memories too; checking 1,400 of them again was a thirtieth
 * of a SessionStart without the daemon. `inertText` is idempotent (inert-text.test.ts), so
 * making them inert again would change nothing.
 */
export function rememberInert<M extends Memory>(list: readonly M[]): void {
  if (Object.isFrozen(list)) memoByList(list, 'inert', () => list);
}

/** The list itself when no memory changed; a frozen list gives a frozen copy, made once. */
export function inertMemories<M extends Memory>(list: readonly M[]): readonly M[] {
  if (!Object.isFrozen(list)) return mapIfChanged(list, inertCopy);
  return memoByList(list, 'inert', () => {
    const mapped = mapIfChanged(list, keptInertCopy);
    return mapped === list ? list : Object.freeze(mapped);
  });
}

export function inertBonds(bonds: readonly Bond[]): readonly Bond[] {
  return bonds.map((bond) => {
    const text = inertText(bond.text);
    return text === bond.text ? bond : { ...bond, text };
  });
}

export function inertDialog(turns: readonly DialogTurn[]): readonly DialogTurn[] {
  return turns.map((turn) => {
    const text = inertText(turn.text);
    return text === turn.text ? turn : { ...turn, text };
  });
}

export function inertProjectMemory(project: ProjectMemory | undefined): ProjectMemory | undefined {
  if (!project) return project;
  const text = inertText(project.text);
  return text === project.text ? project : { ...project, text };
}

interface InjectedParts {
  bonds?: readonly Bond[];
  dialog?: readonly DialogTurn[];
  facts?: string;
  projectMemory?: ProjectMemory;
}

/** The injected texts of a load's input other than memories made inert; everything else passed on as it was. */
export function inertInput<T extends InjectedParts>(input: T): T {
  return {
    ...input,
    ...(input.bonds ? { bonds: inertBonds(input.bonds) } : {}),
    ...(input.dialog ? { dialog: inertDialog(input.dialog) } : {}),
    ...(input.facts !== undefined ? { facts: inertText(input.facts) } : {}),
    ...(input.projectMemory ? { projectMemory: inertProjectMemory(input.projectMemory) } : {}),
  };
}
