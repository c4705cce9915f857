import { specificFieldsOf, visibleInProject } from '../../store/projects/memory-project.js';
import { fitLongTermMemory, type LongTermBlock, type PreparedItem, type PreparedLongTermMemory } from './memory-block.js';
import { isNumber, isPlainObject, isString } from './prepared-load-shapes.js';
import { preparedForProject } from './session-project.js';

/**
 * The long-term block of a prepared load fitted ahead (issue 17, X-PERF): at the budgets a
 * SessionStart starts from (ROLE_LOAD_LIMIT, no summary cap), for each project share — the items
 * a session in no project sees, and those a session in each project that project-specific
 * memories name sees. Fitting is exact and depends on nothing else, so a hook without the daemon
 * that finds its share and budget here reads none of the 7,600 items (prepared-items-file.ts).
 * Design notes: docs/design-notes.md, "main/core/engine/context/prepared-load-fits.ts".
 */
export interface StoredFits {
  /** The positions, in the whole load's lists, of the items this share leaves out. */
  hidden: [full: number[], digest: number[]];
  blocks: Array<[limit: number, digestLimit: number | null, block: LongTermBlock]>;
}

/**
 * Shares beyond these are fitted when asked for. Each is a block of about one budget's
 * characters, and a role whose specific memories span more projects than this is rare.
 */
const MAX_SHARES = 16;

/** The fits to keep with a load: each distinct share, no project first, at each of `limits`. */
export function fitsAhead(prepared: PreparedLongTermMemory, limits: readonly number[]): StoredFits[] {
  const projects = new Set<string | undefined>([undefined]);
  for (const list of [prepared.full, prepared.digest])
    for (const item of list) for (const project of specificFieldsOf(item.memory.extra)?.projects ?? []) projects.add(project);
  const shares: StoredFits[] = [];
  const seen = new Set<string>();
  for (const project of projects) {
    if (shares.length >= MAX_SHARES) break;
    const hidden: StoredFits['hidden'] = [hiddenIn(prepared.full, project), hiddenIn(prepared.digest, project)];
    const signature = JSON.stringify(hidden);
    if (seen.has(signature)) continue;
    seen.add(signature);
    const share = preparedForProject(prepared, project);
    shares.push({ hidden, blocks: [...new Set(limits)].map((limit) => [limit, null, fitLongTermMemory(share, limit)]) });
  }
  return shares;
}

function hiddenIn(items: readonly PreparedItem[], project: string | undefined): number[] {
  const hidden: number[] = [];
  items.forEach((item, i) => {
    if (!visibleInProject(item.memory.extra, project)) hidden.push(i);
  });
  return hidden;
}

/**
 * The positions a session in `project` does not see, from the few items that carry project
 * fields (`kept`, in list order): what `hiddenIn` gives of the whole list, without it.
 */
export function hiddenByKept(kept: ReadonlyArray<[number, Record<string, unknown>]>, project: string | undefined): number[] {
  return kept.filter(([, fields]) => !visibleInProject(fields, project)).map(([index]) => index);
}

/** The kept share with exactly these items left out, if any. */
export function shareFits(fits: readonly StoredFits[], hidden: StoredFits['hidden']): StoredFits | undefined {
  const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((value, i) => value === b[i]);
  return fits.find((share) => same(share.hidden[0], hidden[0]) && same(share.hidden[1], hidden[1]));
}

const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

function isBlock(value: unknown): value is LongTermBlock {
  return isPlainObject(value) && isString(value.text) && isCount(value.shown) && isCount(value.omitted) && isCount(value.digestLength);
}

/** Stored fits as written: positions within the lists' lengths, ascending; whole blocks. */
export function isStoredFits(value: unknown, counts: { full: number; digest: number }): value is StoredFits[] {
  const isPositions = (positions: unknown, count: number) =>
    Array.isArray(positions) &&
    positions.every((position, i) => isCount(position) && position < count && (i === 0 || position > positions[i - 1]));
  const isFit = (fit: unknown) =>
    Array.isArray(fit) && fit.length === 3 && isNumber(fit[0]) && (fit[1] === null || isNumber(fit[1])) && isBlock(fit[2]);
  return (
    Array.isArray(value) &&
    value.every(
      (share) =>
        isPlainObject(share) &&
        Array.isArray(share.hidden) &&
        share.hidden.length === 2 &&
        isPositions(share.hidden[0], counts.full) &&
        isPositions(share.hidden[1], counts.digest) &&
        Array.isArray(share.blocks) &&
        share.blocks.every(isFit),
    )
  );
}
