import fs from 'node:fs';
import { CATEGORIES, type MemoryCategory, type MemoryLoadProblem, type StoredMemory } from '../../../../common/memory.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { isPinned, PINNED } from '../../store/memory/pinned.js';
import { PROJECT_KEY, PROJECT_SPECIFIC_KEY } from '../../store/projects/memory-project.js';
import type { ContextLanguage } from '../../platform/text/context-language.js';
import type { PreparedItem, PreparedItemMemory, PreparedLongTermMemory } from './memory-block.js';
import { isNumber, isPlainObject, isProblem, isStoredMemory, isString, oneOf } from './prepared-load-shapes.js';
import { foldersUnchanged, isFolderStamps, type FolderStamps } from './prepared-load-stamps.js';

/**
 * A role's prepared SessionStart load on disk (issue 17, X-PERF), so the hook without the
 * daemon need not rank 10,000 files; used only while everything it came from is unchanged.
 * Design notes: docs/design-notes.md, "main/core/engine/context/prepared-load-file.ts".
 */
// 2: an item keeps its pin (a load prepared by /1 lost it, and is simply not used).
const FORMAT = 'kioku-prepared-load/2';
/** Far more than 10,000 memories take; a larger file is not one of ours. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;
export const LONG_TERM_CATEGORIES: readonly MemoryCategory[] = CATEGORIES;
export const INBOX_CATEGORIES: readonly MemoryCategory[] = ['inbox'];

/** What the prepared items depend on besides the files: a load prepared under another key is not used. */
export interface PreparedLoadKey {
  roleId: string;
  language: ContextLanguage;
  fullMinPriority: number;
  digestMinPriority: number;
}

/** An item as stored: its text, its folder, and its pin and project fields when it has them. */
type StoredItem = [text: string, category: MemoryCategory, kept?: Record<string, unknown>];

interface StoredLoad {
  format: string;
  roleDir: string;
  key: string;
  /** The moment the items were prepared for, and the first moment they may be wrong (null: never). */
  from: number;
  until: number | null;
  longTerm: {
    folders: FolderStamps[];
    heading: string;
    full: StoredItem[];
    digest: StoredItem[];
    special: StoredMemory[];
    problems: MemoryLoadProblem[];
  };
  inbox: { folders: FolderStamps[]; memories: StoredMemory[]; problems: MemoryLoadProblem[] };
}

export interface PreparedLongTermPart {
  folders: FolderStamps[];
  prepared: PreparedLongTermMemory;
  /** `loadSpecialMemories` of the long-term memories, in file order. */
  special: StoredMemory[];
  problems: MemoryLoadProblem[];
  until: number;
}

export interface PreparedInboxPart {
  folders: FolderStamps[];
  memories: StoredMemory[];
  problems: MemoryLoadProblem[];
}

/**
 * The key as stored. Item texts hold local dates, so the time zone is in it: its name when TZ
 * sets it, and its offsets on the first of each month of the year before and after `now` — what
 * formatting a date reads of it (asking Intl for the zone's name costs the hook ICU's start-up).
 */
function keyText(key: PreparedLoadKey, now: Date): string {
  const year = now.getFullYear();
  const offsets = Array.from({ length: 36 }, (_, i) => new Date(year - 1, i, 1).getTimezoneOffset());
  return JSON.stringify([key.roleId, key.language, key.fullMinPriority, key.digestMinPriority, process.env.TZ ?? '', offsets]);
}

/**
 * The parts of the prepared load that still hold at `now` for these files and this key; either
 * may be missing (then it is computed from the files). Never throws: a file that cannot be read,
 * parsed or trusted is as good as none.
 */
export function readPreparedLoad(
  file: string,
  roleDir: string,
  key: PreparedLoadKey,
  now: Date,
): { longTerm?: PreparedLongTermPart; inbox?: PreparedInboxPart } {
  let stored: unknown;
  try {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat || !stat.isFile() || stat.size > MAX_FILE_BYTES) return {};
    stored = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
  if (!isStoredHeader(stored) || stored.roleDir !== roleDir || stored.key !== keyText(key, now)) return {};
  try {
    const time = now.getTime();
    const until = stored.until ?? Infinity;
    // Stale long-term items mean reading every file anyway: nothing else is checked then, so a
    // stale prepared load costs the full computation little more than reading this file.
    if (!(stored.from <= time && time < until && foldersUnchanged(roleDir, stored.longTerm.folders))) return {};
    if (!isStoredLoad(stored)) return {};
    const { longTerm, inbox } = stored;
    return {
      longTerm: {
        folders: longTerm.folders,
        prepared: fromStored(longTerm, key),
        special: longTerm.special,
        problems: longTerm.problems,
        until,
      },
      ...(foldersUnchanged(roleDir, inbox.folders)
        ? { inbox: { folders: inbox.folders, memories: inbox.memories, problems: inbox.problems } }
        : {}),
    };
  } catch {
    return {};
  }
}

function fromStored(longTerm: StoredLoad['longTerm'], key: PreparedLoadKey): PreparedLongTermMemory {
  const item = ([text, category, kept]: StoredItem): PreparedItem => {
    const memory: PreparedItemMemory = { category, extra: kept ?? {} };
    return { text, memory, pinned: isPinned(memory) };
  };
  return { heading: longTerm.heading, full: longTerm.full.map(item), digest: longTerm.digest.map(item), language: key.language };
}

function toStored(item: PreparedItem): StoredItem {
  const extra = item.memory.extra;
  const pinned = item.pinned;
  if (extra?.[PROJECT_SPECIFIC_KEY] === undefined && !pinned) return [item.text, item.memory.category];
  // What fitting and narrowing read (memory-block.ts: a pinned summary keeps its room, issue 16;
  // memory-project.ts); nothing else of the file's front matter is kept.
  return [
    item.text,
    item.memory.category,
    {
      ...(pinned ? { [PINNED]: true } : {}),
      ...(extra?.[PROJECT_SPECIFIC_KEY] !== undefined
        ? { [PROJECT_KEY]: extra[PROJECT_KEY], [PROJECT_SPECIFIC_KEY]: extra[PROJECT_SPECIFIC_KEY] }
        : {}),
    },
  ];
}

/** Write the whole prepared load, atomically (a reader sees the old file or the new one). */
export function writePreparedLoad(
  file: string,
  roleDir: string,
  key: PreparedLoadKey,
  from: Date,
  longTerm: PreparedLongTermPart,
  inbox: PreparedInboxPart,
): void {
  const stored: StoredLoad = {
    format: FORMAT,
    roleDir,
    key: keyText(key, from),
    from: from.getTime(),
    until: Number.isFinite(longTerm.until) ? longTerm.until : null,
    longTerm: {
      folders: longTerm.folders,
      heading: longTerm.prepared.heading,
      full: longTerm.prepared.full.map(toStored),
      digest: longTerm.prepared.digest.map(toStored),
      special: longTerm.special,
      problems: longTerm.problems,
    },
    inbox: { folders: inbox.folders, memories: inbox.memories, problems: inbox.problems },
  };
  // A cache: losing it in a power cut only costs the next load its head start.
  writeFileAtomicSync(file, JSON.stringify(stored), { durable: false });
}

// Checks of the stored shape: a garbled or hand-made file must not reach the assembly.

function isStoredItem(value: unknown): value is StoredItem {
  return (
    Array.isArray(value) &&
    (value.length === 2 || (value.length === 3 && isPlainObject(value[2]))) &&
    isString(value[0]) &&
    oneOf(CATEGORIES)(value[1])
  );
}

function foldersOf(value: unknown, categories: readonly MemoryCategory[]): boolean {
  return Array.isArray(value) && value.length === categories.length && value.every((folder, i) => isFolderStamps(folder, categories[i]!));
}

/** What freshness is judged from: format, key, window and the folders' stamps. */
type StoredHeader = Pick<StoredLoad, 'format' | 'roleDir' | 'key' | 'from' | 'until'> & {
  longTerm: Pick<StoredLoad['longTerm'], 'folders'> & Record<string, unknown>;
  inbox: Pick<StoredLoad['inbox'], 'folders'> & Record<string, unknown>;
};

function isStoredHeader(value: unknown): value is StoredHeader {
  if (!isPlainObject(value) || value.format !== FORMAT || !isString(value.roleDir) || !isString(value.key) || !isNumber(value.from))
    return false;
  if (value.until !== null && !isNumber(value.until)) return false;
  const { longTerm, inbox } = value;
  return (
    isPlainObject(longTerm) &&
    isPlainObject(inbox) &&
    foldersOf(longTerm.folders, LONG_TERM_CATEGORIES) &&
    foldersOf(inbox.folders, INBOX_CATEGORIES)
  );
}

/** The rest of a stored load whose header passed `isStoredHeader`. */
function isStoredLoad(value: StoredHeader): value is StoredLoad & StoredHeader {
  const { longTerm, inbox, roleDir } = value;
  return (
    isString(longTerm.heading) &&
    Array.isArray(longTerm.full) &&
    longTerm.full.every(isStoredItem) &&
    Array.isArray(longTerm.digest) &&
    longTerm.digest.every(isStoredItem) &&
    Array.isArray(longTerm.special) &&
    longTerm.special.every((m) => isStoredMemory(m, roleDir, LONG_TERM_CATEGORIES)) &&
    Array.isArray(longTerm.problems) &&
    longTerm.problems.every(isProblem) &&
    Array.isArray(inbox.memories) &&
    inbox.memories.every((m) => isStoredMemory(m, roleDir, INBOX_CATEGORIES)) &&
    Array.isArray(inbox.problems) &&
    inbox.problems.every(isProblem)
  );
}
