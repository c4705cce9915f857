import { CATEGORIES } from '../../../../common/memory.js';
import { isPinned, PINNED } from '../../store/memory/pinned.js';
import { PROJECT_KEY, PROJECT_SPECIFIC_KEY, visibleInProject } from '../../store/projects/memory-project.js';
import type { ContextLanguage } from '../../platform/text/context-language.js';
import {
  itemRoom,
  rememberFit,
  rememberItemRooms,
  type PreparedItem,
  type PreparedItemMemory,
  type PreparedLongTermMemory,
} from './memory-block.js';
import { rememberProjectShare, rememberSpecificItems } from './session-project.js';
import { PreparedOnDemand, writePreparedItems, type StoredTexts } from './prepared-items-file.js';
import { fitsAhead, hiddenByKept, isStoredFits, shareFits, type StoredFits } from './prepared-load-fits.js';
import { indexedEntries, isPlainObject, isString } from './prepared-load-shapes.js';

/**
 * The long-term items of a prepared load (issue 17, X-PERF): what the load keeps of them (their
 * count, the kept fields, the fits made ahead), written and read back; their texts and folders
 * are in the items file (prepared-items-file.ts). The load file itself is prepared-load-file.ts.
 */

/**
 * Items as columns: their texts, their folders (indexes into CATEGORIES) and, for the few that
 * have them, their pin and project fields by item index. At 10,000 memories a load holds about
 * 7,600 items; parsing one small array per item cost the hook about a quarter of reading the
 * file (JSON.parse's allocations and the scavenges they bring), columns cost a handful of arrays.
 * The texts and folders are in the items file; the load keeps how many there are and the kept
 * fields, which tell project shares and pins without them.
 */
interface StoredItems extends StoredTexts {
  kept: KeptFields;
}

type KeptFields = Array<[index: number, fields: Record<string, unknown>]>;

interface StoredItemsHead {
  count: number;
  kept: KeptFields;
}

/**
 * The long-term items as a load read back has them on disk, for writing the load again without
 * reading them (a new inbox, a full check's time): their file's id, the kept fields, the fits.
 */
export interface StoredLongTermItems {
  itemsId: string;
  full: StoredItemsHead;
  digest: StoredItemsHead;
  fits: StoredFits[];
}

/** How a load read back is used: the session's project, and the items afresh should their file be lost. */
export interface PreparedLoadUse {
  /** The session's project (session-project.ts `sessionProject`): its share's fits are looked up. */
  project: string | undefined;
  /**
   * The long-term items computed from the memory files: called only when the items file, needed
   * after all (a budget or share not fitted ahead), cannot be read — removed, or replaced by a
   * writer between the load and it. The same items while the files are as the load was checked.
   */
  recompute: () => Pick<PreparedLongTermMemory, 'full' | 'digest'>;
}

/**
 * The prepared load back, its items made only when something reads them (prepared-items-file.ts):
 * the session's share and the fits kept for it are told to the block (memory-block.ts
 * `rememberFit`, session-project.ts `rememberProjectShare`), so a SessionStart at the budget it
 * starts from never does. Made, the items come with what fitting and narrowing would otherwise
 * find by a pass over all 7,600 (their rooms).
 */
export function longTermFromStored(
  longTerm: StoredLongTermItems & { heading: string },
  language: ContextLanguage,
  readItems: (counts: { full: number; digest: number }) => { full: StoredTexts; digest: StoredTexts } | undefined,
  use: PreparedLoadUse,
): PreparedLongTermMemory {
  const counts = { full: longTerm.full.count, digest: longTerm.digest.count };
  const whole: PreparedLongTermMemory = new PreparedOnDemand(longTerm.heading, language, () => {
    const texts = readItems(counts);
    if (!texts) return use.recompute();
    const full = fromStoredItems({ ...texts.full, kept: longTerm.full.kept });
    const digest = fromStoredItems({ ...texts.digest, kept: longTerm.digest.kept });
    rememberItemRooms(whole, { full: full.rooms, digest: digest.rooms, pinnedDigest: digest.pinnedRoom });
    return { full: full.items, digest: digest.items };
  });
  // Only kept fields carry a project (toStoredItems), so only those items can be project-specific.
  const specificOf = (kept: KeptFields) => kept.filter(([, fields]) => fields[PROJECT_SPECIFIC_KEY] !== undefined).map(([index]) => index);
  rememberSpecificItems(whole, { full: specificOf(longTerm.full.kept), digest: specificOf(longTerm.digest.kept) });
  const hidden: StoredFits['hidden'] = [hiddenByKept(longTerm.full.kept, use.project), hiddenByKept(longTerm.digest.kept, use.project)];
  let share = whole;
  if (hidden[0].length > 0 || hidden[1].length > 0) {
    // What preparedForProject would make of the whole, by the same test of each item.
    const visible = (item: PreparedItem) => visibleInProject(item.memory.extra, use.project);
    share = new PreparedOnDemand(longTerm.heading, language, () => ({
      full: whole.full.filter(visible),
      digest: whole.digest.filter(visible),
    }));
  }
  rememberProjectShare(whole, use.project, share);
  for (const [limit, digestLimit, block] of shareFits(longTerm.fits, hidden)?.blocks ?? [])
    rememberFit(share, limit, digestLimit ?? undefined, block);
  return whole;
}

/**
 * An item without kept fields (nearly all) shares its folder's memory object: nothing changes a
 * prepared item's memory, and 7,600 pairs of small objects were a tenth of reading a load back.
 */
const PLAIN_MEMORIES: readonly PreparedItemMemory[] = CATEGORIES.map((category) => Object.freeze({ category, extra: Object.freeze({}) }));

function fromStoredItems(stored: StoredItems): { items: PreparedItem[]; rooms: number[]; pinnedRoom: number } {
  const kept = new Map(stored.kept);
  const rooms: number[] = [];
  let pinnedRoom = 0;
  const items = stored.texts.map((text, i): PreparedItem => {
    const fields = kept.get(i);
    const item: PreparedItem = fields
      ? { text, memory: { category: CATEGORIES[stored.categories[i]!]!, extra: fields }, pinned: isPinned({ extra: fields }) }
      : { text, memory: PLAIN_MEMORIES[stored.categories[i]!]!, pinned: false };
    rooms.push(itemRoom(item));
    if (item.pinned) pinnedRoom += rooms[i]!;
    return item;
  });
  return { items, rooms, pinnedRoom };
}

/** Fresh items to their file (named `itemsId`), and what the load keeps of them. */
export function writeLongTermItems(
  file: string,
  roleDir: string,
  itemsId: string,
  prepared: PreparedLongTermMemory,
  fitLimits: readonly number[],
): StoredLongTermItems {
  const full = toStoredItems(prepared.full);
  const digest = toStoredItems(prepared.digest);
  const texts = ({ texts, categories }: StoredItems): StoredTexts => ({ texts, categories });
  writePreparedItems(file, roleDir, itemsId, texts(full), texts(digest));
  return {
    itemsId,
    full: { count: full.texts.length, kept: full.kept },
    digest: { count: digest.texts.length, kept: digest.kept },
    fits: fitsAhead(prepared, fitLimits),
  };
}

function toStoredItems(items: readonly PreparedItem[]): StoredItems {
  const stored: StoredItems = { texts: [], categories: [], kept: [] };
  items.forEach((item, i) => {
    stored.texts.push(item.text);
    stored.categories.push(CATEGORIES.indexOf(item.memory.category as (typeof CATEGORIES)[number]));
    const extra = item.memory.extra;
    if (extra?.[PROJECT_SPECIFIC_KEY] === undefined && !item.pinned) return;
    // What fitting and narrowing read (memory-block.ts: a pinned summary keeps its room, issue 16;
    // memory-project.ts); nothing else of the file's front matter is kept.
    stored.kept.push([
      i,
      {
        ...(item.pinned ? { [PINNED]: true } : {}),
        ...(extra?.[PROJECT_SPECIFIC_KEY] !== undefined
          ? { [PROJECT_KEY]: extra[PROJECT_KEY], [PROJECT_SPECIFIC_KEY]: extra[PROJECT_SPECIFIC_KEY] }
          : {}),
      },
    ]);
  });
  return stored;
}

function isStoredItemsHead(value: unknown): value is StoredItemsHead {
  if (!isPlainObject(value) || !Number.isSafeInteger(value.count) || (value.count as number) < 0) return false;
  // Kept fields in item order, each for an item there is.
  return indexedEntries(value.kept, value.count as number, isPlainObject) !== undefined;
}

/** The long-term items' part of a stored load as written: kept fields for items there are, fits that fit them. */
export function isStoredLongTermItems(value: Record<string, unknown>): value is Record<string, unknown> & StoredLongTermItems {
  return (
    isString(value.itemsId) &&
    isStoredItemsHead(value.full) &&
    isStoredItemsHead(value.digest) &&
    isStoredFits(value.fits, { full: value.full.count, digest: value.digest.count })
  );
}
