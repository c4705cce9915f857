import { CATEGORIES } from '../../../../common/memory.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { readUtf16File, utf16Bytes } from '../../platform/fs/utf16-text-file.js';
import type { ContextLanguage } from '../../platform/text/context-language.js';
import type { PreparedItem, PreparedLongTermMemory } from './memory-block.js';
import { isPlainObject, isString } from './prepared-load-shapes.js';

/**
 * The long-term items of a prepared load (issue 17, X-PERF), in a file of their own beside it:
 * their texts and folders, 7,600 of them at 10,000 memories, half of what the load held. A
 * SessionStart shows the few dozen that a budget of 4,000 characters holds, and the load keeps
 * those fits ahead (prepared-load-fits.ts), so the hook without the daemon reads this file only
 * when it must fit the items to another budget (a load that has to shrink) or another project.
 * Design notes: docs/design-notes.md, "main/core/engine/context/prepared-items-file.ts".
 */
const ITEMS_FORMAT = 'kioku-prepared-items/1';
/** Far more than 10,000 memories' items take; a larger file is not one of ours. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** One list's texts and folders (indexes into CATEGORIES), in list order. */
export interface StoredTexts {
  texts: string[];
  categories: number[];
}

interface StoredItemsFile {
  format: string;
  roleDir: string;
  /** The id the prepared load names: another load's items are never taken for its own. */
  id: string;
  full: StoredTexts;
  digest: StoredTexts;
}

export function writePreparedItems(file: string, roleDir: string, id: string, full: StoredTexts, digest: StoredTexts): void {
  const stored: StoredItemsFile = { format: ITEMS_FORMAT, roleDir, id, full, digest };
  // A cache, like the load itself: a power cut only costs the next load its head start.
  writeFileAtomicSync(file, utf16Bytes(JSON.stringify(stored)), { durable: false });
}

/** The items the load naming `id` goes with, `counts` long; undefined when the file is not that (missing, garbled, another load's). */
export function readPreparedItems(
  file: string,
  roleDir: string,
  id: string,
  counts: { full: number; digest: number },
): { full: StoredTexts; digest: StoredTexts } | undefined {
  try {
    const text = readUtf16File(file, MAX_FILE_BYTES);
    if (text === undefined) return undefined;
    const stored: unknown = JSON.parse(text);
    if (!isPlainObject(stored) || stored.format !== ITEMS_FORMAT || stored.roleDir !== roleDir || stored.id !== id) return undefined;
    const { full, digest } = stored;
    return isStoredTexts(full, counts.full) && isStoredTexts(digest, counts.digest) ? { full, digest } : undefined;
  } catch {
    return undefined;
  }
}

const isCategoryIndex = (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) < CATEGORIES.length;

function isStoredTexts(value: unknown, count: number): value is StoredTexts {
  if (!isPlainObject(value)) return false;
  const { texts, categories } = value;
  return (
    Array.isArray(texts) &&
    Array.isArray(categories) &&
    texts.length === count &&
    categories.length === count &&
    texts.every(isString) &&
    categories.every(isCategoryIndex)
  );
}

/**
 * A prepared long-term load whose item lists are made only when something reads them: fitting at
 * a budget not kept ahead, narrowing to a project without a kept share. `lists` is called at most
 * once. A private field, not a property: narrowing copies the load with a spread
 * (session-project.ts), which must not carry the loader along.
 */
export class PreparedOnDemand implements PreparedLongTermMemory {
  readonly #lists: () => { full: PreparedItem[]; digest: PreparedItem[] };
  #made: { full: PreparedItem[]; digest: PreparedItem[] } | undefined;

  constructor(
    readonly heading: string,
    readonly language: ContextLanguage,
    lists: () => { full: PreparedItem[]; digest: PreparedItem[] },
  ) {
    this.#lists = lists;
  }

  get full(): PreparedItem[] {
    return (this.#made ??= this.#lists()).full;
  }

  get digest(): PreparedItem[] {
    return (this.#made ??= this.#lists()).digest;
  }

  /** Whether the lists were made (tests tell a load answered from its kept fits by this). */
  get listsMade(): boolean {
    return this.#made !== undefined;
  }
}
