import fs from 'node:fs';
import { CATEGORIES, type MemoryCategory, type MemoryLoadProblem, type StoredMemory } from '../../../../common/memory.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { readUtf16File, utf16Bytes } from '../../platform/fs/utf16-text-file.js';
import type { PreparedLongTermMemory } from './memory-block.js';
import type { ContextLanguage } from '../../platform/text/context-language.js';
import { readPreparedItems } from './prepared-items-file.js';
import {
  isStoredLongTermItems,
  longTermFromStored,
  writeLongTermItems,
  type PreparedLoadUse,
  type StoredLongTermItems,
} from './prepared-long-term.js';
import { isNumber, isPlainObject, isProblem, isString } from './prepared-load-shapes.js';
import { fromMemoryColumns, toMemoryColumns, type MemoryColumns } from './stored-memory-columns.js';
import { isPackedFolderHead, packFolderStamps, unpackFolderStamps, type PackedFolderStamps } from './packed-folder-stamps.js';
import { inboxInOrder, rememberInboxOrder } from './inbox-block.js';
import { fromStoredInbox, toStoredInbox, type StoredInbox } from './prepared-inbox.js';
import { inertMemory, rememberInert } from './inert-input.js';
import { checkedRecently, SMALL_ROLE_FILES, type FullCheckPolicy } from '../../store/memory/full-check-policy.js';
import {
  dirsUnchanged,
  fileCount,
  foldersUnchanged,
  headOf,
  isFolderHead,
  isFolderStamps,
  settleRacy,
  type FolderHead,
  type FolderStamps,
} from './prepared-load-stamps.js';

/**
 * A role's prepared SessionStart load on disk (issue 17, X-PERF), so the hook without the
 * daemon need not rank 10,000 files; used only while everything it came from is unchanged.
 * Design notes: docs/design-notes.md, "main/core/engine/context/prepared-load-file.ts".
 */
// 2: an item keeps its pin (a load prepared by /1 lost it, and is simply not used).
// 3: the long-term files' stamps are in a file of their own, read only by a full check.
// 4: items as columns, memories' paths relative to the role's folder (less to parse: below),
//    and the file in UTF-16LE (utf16-text-file.ts).
// 5: whole memories (the inbox, the special ones) as columns (stored-memory-columns.ts), the
//    inbox in the order its block shows it (inbox-block.ts `inboxInOrder`) and inert.
// 6: the items' texts and folders in a file of their own (prepared-items-file.ts), read only when
//    no fit kept ahead (prepared-load-fits.ts) answers; of the inbox only the newest whole, the
//    older counted (prepared-inbox.ts).
// What is stored derived is taken as it is: a change to how it is derived — the item texts'
// formatting (memory-block.ts), inert-text.ts, the inbox's order — must bump this too.
const FORMAT = 'kioku-prepared-load/6';
const STAMPS_FORMAT = 'kioku-prepared-stamps/1';
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

interface StoredLoad {
  format: string;
  roleDir: string;
  key: string;
  /** The moment the items were prepared for, and the first moment they may be wrong (null: never). */
  from: number;
  until: number | null;
  /** Wall-clock time (ms) at which every file was last found as stamped (full-check-policy.ts). */
  checkedAt: number;
  /** The long-term files' stamps this load goes with (preparedStampsPath), and how many files they cover. */
  stampsId: string;
  longTermFiles: number;
  /** The items' count, kept fields and fits, and their file's id (prepared-long-term.ts). */
  longTerm: StoredLongTermItems & {
    /** Only the folders' own stamps: each file's are in the stamps file. */
    folders: FolderHead[];
    heading: string;
    special: MemoryColumns;
    problems: MemoryLoadProblem[];
  };
  /**
   * The memories newest first (`inboxInOrder`) and inert (`inertMemory`): read back, the block
   * need not sort them, nor the load make them inert — what they are read for is injecting them.
   */
  inbox: { folders: PackedFolderStamps[]; problems: MemoryLoadProblem[] } & StoredInbox;
}

/** The stamps file beside a prepared load: each long-term file's stamp, under the id its load names. */
interface StoredStamps {
  format: string;
  roleDir: string;
  id: string;
  folders: FolderStamps[];
}

/** Where a role's prepared load, its stamps and its items are (prepared-paths.ts). */
export interface PreparedFiles {
  load: string;
  stamps: string;
  items: string;
}

/**
 * The long-term files' stamps: fresh, from the files a part was just computed from; or those on
 * disk that a part read back goes with (`kept`). `checkedAt`: when every file was last found as
 * stamped — carried over unchanged by a part whose files were not all stat'ed again.
 */
export type LongTermStamps =
  { fresh: FolderStamps[]; checkedAt: number } | { kept: { id: string; folders: FolderHead[]; files: number }; checkedAt: number };

export interface PreparedLongTermPart {
  stamps: LongTermStamps;
  prepared: PreparedLongTermMemory;
  /** Read back from disk: the items are in their file already, and are written again from this. */
  stored?: StoredLongTermItems;
  /** `loadSpecialMemories` of the long-term memories, in file order. */
  special: StoredMemory[];
  problems: MemoryLoadProblem[];
  until: number;
}

export interface PreparedInboxPart {
  folders: FolderStamps[];
  /**
   * The whole inbox; read back from a prepared load, only its newest (prepared-inbox.ts), frozen,
   * inert, in the inbox block's order (rememberInboxOrder).
   */
  memories: readonly StoredMemory[];
  problems: MemoryLoadProblem[];
  /** Read back from disk: written again as it was stored. */
  stored?: StoredInbox;
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
 * The inbox part as read back: its files' stamps only when a full check unpacked them
 * (packed-folder-stamps.ts); its newest memories whole, the older ones counted (prepared-inbox.ts).
 */
export type FoundInboxPart = Omit<PreparedInboxPart, 'folders'> & {
  folders?: FolderStamps[];
  older: StoredInbox['older'];
  /** The older memories a load reads one by one (`loadSpecialMemories`), in order. */
  olderSpecial: readonly StoredMemory[];
  stored: StoredInbox;
};

export interface PreparedLoadFound {
  longTerm?: PreparedLongTermPart;
  inbox?: FoundInboxPart;
  /**
   * A full check passed and what it found is worth writing down: its time (a large role's next
   * loads skip the check), or folders that need no listing any more (settleRacy).
   */
  rewrite: boolean;
}

const NONE: PreparedLoadFound = { rewrite: false };

/**
 * The parts of the prepared load that still hold at `now` for these files and this key; either
 * may be missing (then it is computed from the files). Never throws: a file that cannot be read,
 * parsed or trusted is as good as none.
 *
 * Its folders' stamps are checked every time; its files' only when the full-check policy says so
 * (full-check-policy.ts: a small role always, a large one when its last check is 10 minutes old),
 * because at 10,000 memories that stat pass was most of a load's cost. A folder that was racy
 * when stamped is always checked file by file.
 */
export function readPreparedLoad(
  files: PreparedFiles,
  roleDir: string,
  key: PreparedLoadKey,
  now: Date,
  use: PreparedLoadUse,
  policy: FullCheckPolicy = {},
): PreparedLoadFound {
  const stored = readJson(files.load, 'utf16le');
  if (!isStoredHeader(stored) || stored.roleDir !== roleDir || stored.key !== keyText(key, now)) return NONE;
  try {
    const time = now.getTime();
    const until = stored.until ?? Infinity;
    // Stale long-term items mean reading every file anyway: nothing else is checked then, so a
    // stale prepared load costs the full computation little more than reading this file.
    if (!(stored.from <= time && time < until && dirsUnchanged(roleDir, stored.longTerm.folders))) return NONE;
    const heads = stored.longTerm.folders;
    const inboxFolders = stored.inbox.folders;
    // Taken before the stat pass: an edit the pass raced past is at most one interval from the next.
    const wallMs = (policy.nowMs ?? Date.now)();
    const roleFiles = stored.longTermFiles + inboxFolders.reduce((sum, folder) => sum + folder.files, 0);
    const large = roleFiles >= (policy.smallRoleFiles ?? SMALL_ROLE_FILES);
    const racy = heads.some((folder) => folder.racy) || inboxFolders.some((folder) => folder.racy);
    const check = !large || racy || !checkedRecently(stored.checkedAt, wallMs, policy);
    let checked: FolderStamps[] | undefined;
    if (check) {
      checked = readStamps(files.stamps, roleDir, stored.stampsId);
      if (!checked || !foldersUnchanged(roleDir, checked)) return NONE;
    }
    if (!isStoredLoad(stored)) return NONE;
    const { longTerm, inbox } = stored;
    const special = fromMemoryColumns(longTerm.special, roleDir, key.roleId, LONG_TERM_CATEGORIES);
    const inboxRead = fromStoredInbox(inbox, roleDir, key.roleId);
    if (!special || !inboxRead) return NONE;
    const inboxMemories = Object.freeze(inboxRead.recent);
    rememberInboxOrder(inboxMemories);
    rememberInert(inboxMemories);
    // Each inbox file's stamp is unpacked and checked only by a full check: 1,400 of them.
    let inboxStamps: FolderStamps[] | undefined;
    if (check) {
      inboxStamps = inbox.folders.map((folder, i) => unpackFolderStamps(folder, INBOX_CATEGORIES[i]!)).filter((folder) => !!folder);
      if (inboxStamps.length !== inbox.folders.length) return NONE;
    }
    const inboxHolds = inboxStamps ? foldersUnchanged(roleDir, inboxStamps) : dirsUnchanged(roleDir, inbox.folders);
    const settledLongTerm = checked && settleRacy(checked);
    const settledInbox = inboxStamps && inboxHolds ? settleRacy(inboxStamps) : undefined;
    const stamps: LongTermStamps = checked
      ? { fresh: settledLongTerm ?? checked, checkedAt: wallMs }
      : { kept: { id: stored.stampsId, folders: heads, files: stored.longTermFiles }, checkedAt: stored.checkedAt };
    return {
      longTerm: {
        stamps,
        prepared: longTermFromStored(
          longTerm,
          key.language,
          (counts) => readPreparedItems(files.items, roleDir, longTerm.itemsId, counts),
          use,
        ),
        stored: { itemsId: longTerm.itemsId, full: longTerm.full, digest: longTerm.digest, fits: longTerm.fits },
        special,
        problems: longTerm.problems,
        until,
      },
      ...(inboxHolds
        ? {
            inbox: {
              ...(inboxStamps ? { folders: settledInbox ?? inboxStamps } : {}),
              memories: inboxMemories,
              older: inboxRead.older,
              olderSpecial: inboxRead.olderSpecial,
              problems: inbox.problems,
              stored: { memories: inbox.memories, older: inbox.older },
            },
          }
        : {}),
      rewrite: check && ((large && !racy) || !!settledLongTerm || !!settledInbox),
    };
  } catch {
    return NONE;
  }
}

/** The load is UTF-16LE (utf16-text-file.ts); its stamps file is ASCII, as cheap in UTF-8. */
function readJson(file: string, encoding: 'utf8' | 'utf16le'): unknown {
  try {
    if (encoding === 'utf16le') {
      const text = readUtf16File(file, MAX_FILE_BYTES);
      return text === undefined ? undefined : JSON.parse(text);
    }
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat || !stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The long-term files' stamps that go with the load naming `id`; undefined when there are none such. */
function readStamps(file: string, roleDir: string, id: string): FolderStamps[] | undefined {
  const stored = readJson(file, 'utf8');
  if (!isPlainObject(stored) || stored.format !== STAMPS_FORMAT || stored.roleDir !== roleDir || stored.id !== id) return undefined;
  return foldersOf(stored.folders, LONG_TERM_CATEGORIES, isFolderStamps) ? (stored.folders as FolderStamps[]) : undefined;
}

/**
 * Names a stamps or items file for one load: another load's (a write cut short between the
 * files, a writer between a reader's load and its items) are never taken for its own.
 */
function newFileId(): string {
  return `${Date.now().toString(36)}-${process.pid.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** The stamps and items files a written load names: what a next write may name again (`kept`, `stored`). */
export interface WrittenLongTerm {
  kept: { id: string; folders: FolderHead[]; files: number };
  items: StoredLongTermItems;
}

/**
 * Write the prepared load, atomically (a reader sees the old file or the new one). Fresh stamps
 * and fresh items go to new files first, so a load on disk never names files that are not there.
 * `fitLimits`: the ROLE_LOAD_LIMIT budgets to fit the fresh items at ahead (prepared-load-fits.ts).
 */
export function writePreparedLoad(
  files: PreparedFiles,
  roleDir: string,
  key: PreparedLoadKey,
  from: Date,
  longTerm: PreparedLongTermPart,
  inbox: PreparedInboxPart,
  fitLimits: readonly number[],
): WrittenLongTerm {
  const { stamps } = longTerm;
  let kept: { id: string; folders: FolderHead[]; files: number };
  if ('fresh' in stamps) {
    kept = {
      id: newFileId(),
      folders: stamps.fresh.map(headOf),
      files: fileCount(stamps.fresh),
    };
    const stored: StoredStamps = { format: STAMPS_FORMAT, roleDir, id: kept.id, folders: stamps.fresh };
    writeFileAtomicSync(files.stamps, JSON.stringify(stored), { durable: false });
  } else kept = stamps.kept;
  const items = longTerm.stored ?? writeLongTermItems(files.items, roleDir, newFileId(), longTerm.prepared, fitLimits);
  const stored: StoredLoad = {
    format: FORMAT,
    roleDir,
    key: keyText(key, from),
    from: from.getTime(),
    until: Number.isFinite(longTerm.until) ? longTerm.until : null,
    checkedAt: stamps.checkedAt,
    stampsId: kept.id,
    longTermFiles: kept.files,
    longTerm: {
      folders: kept.folders,
      heading: longTerm.prepared.heading,
      ...items,
      special: toMemoryColumns(longTerm.special, roleDir, key.roleId),
      problems: longTerm.problems,
    },
    inbox: {
      folders: inbox.folders.map(packFolderStamps),
      ...(inbox.stored ?? toStoredInbox(inboxInOrder(inbox.memories).map(inertMemory), roleDir, key.roleId)),
      problems: inbox.problems,
    },
  };
  // A cache: losing it in a power cut only costs the next load its head start.
  writeFileAtomicSync(files.load, utf16Bytes(JSON.stringify(stored)), { durable: false });
  return { kept, items };
}

// Checks of the stored shape: a garbled or hand-made file must not reach the assembly.

function foldersOf(
  value: unknown,
  categories: readonly MemoryCategory[],
  isFolder: (value: unknown, category: MemoryCategory) => boolean,
): boolean {
  return Array.isArray(value) && value.length === categories.length && value.every((folder, i) => isFolder(folder, categories[i]!));
}

/** What freshness is judged from: format, key, window and the folders' stamps (the inbox's files' only when checked). */
type StoredHeader = Pick<StoredLoad, 'format' | 'roleDir' | 'key' | 'from' | 'until' | 'checkedAt' | 'stampsId' | 'longTermFiles'> & {
  longTerm: Pick<StoredLoad['longTerm'], 'folders'> & Record<string, unknown>;
  inbox: Pick<StoredLoad['inbox'], 'folders'> & Record<string, unknown>;
};

function isStoredHeader(value: unknown): value is StoredHeader {
  if (!isPlainObject(value) || value.format !== FORMAT || !isString(value.roleDir) || !isString(value.key) || !isNumber(value.from))
    return false;
  if (value.until !== null && !isNumber(value.until)) return false;
  if (
    !isNumber(value.checkedAt) ||
    !isString(value.stampsId) ||
    !Number.isSafeInteger(value.longTermFiles) ||
    (value.longTermFiles as number) < 0
  )
    return false;
  const { longTerm, inbox } = value;
  return (
    isPlainObject(longTerm) &&
    isPlainObject(inbox) &&
    foldersOf(longTerm.folders, LONG_TERM_CATEGORIES, isFolderHead) &&
    foldersOf(inbox.folders, INBOX_CATEGORIES, isPackedFolderHead)
  );
}

/** The rest of a stored load whose header passed `isStoredHeader`. */
function isStoredLoad(value: StoredHeader): value is StoredLoad & StoredHeader {
  const { longTerm, inbox } = value;
  return (
    isString(longTerm.heading) &&
    isStoredLongTermItems(longTerm) &&
    Array.isArray(longTerm.problems) &&
    longTerm.problems.every(isProblem) &&
    Array.isArray(inbox.problems) &&
    inbox.problems.every(isProblem)
  );
}
