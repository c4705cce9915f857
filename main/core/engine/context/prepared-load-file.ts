import fs from 'node:fs';
import { CATEGORIES, type MemoryCategory, type MemoryLoadProblem, type StoredMemory } from '../../../../common/memory.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { readUtf16File, utf16Bytes } from '../../platform/fs/utf16-text-file.js';
import { isPinned, PINNED } from '../../store/memory/pinned.js';
import { PROJECT_KEY, PROJECT_SPECIFIC_KEY } from '../../store/projects/memory-project.js';
import type { ContextLanguage } from '../../platform/text/context-language.js';
import { itemRoom, rememberItemRooms, type PreparedItem, type PreparedItemMemory, type PreparedLongTermMemory } from './memory-block.js';
import { rememberSpecificItems } from './session-project.js';
import { indexedEntries, isNumber, isPlainObject, isProblem, isString } from './prepared-load-shapes.js';
import { fromMemoryColumns, toMemoryColumns, type MemoryColumns } from './stored-memory-columns.js';
import { isPackedFolderHead, packFolderStamps, unpackFolderStamps, type PackedFolderStamps } from './packed-folder-stamps.js';
import { inboxInOrder, rememberInboxOrder } from './inbox-block.js';
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
// What is stored derived is taken as it is: a change to how it is derived — the item texts'
// formatting (memory-block.ts), inert-text.ts, the inbox's order — must bump this too.
const FORMAT = 'kioku-prepared-load/5';
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

/**
 * Items as columns: their texts, their folders (indexes into CATEGORIES) and, for the few that
 * have them, their pin and project fields by item index. At 10,000 memories a load holds about
 * 7,600 items; parsing one small array per item cost the hook about a quarter of reading the
 * file (JSON.parse's allocations and the scavenges they bring), columns cost a handful of arrays.
 */
interface StoredItems {
  texts: string[];
  categories: number[];
  kept: Array<[index: number, fields: Record<string, unknown>]>;
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
  longTerm: {
    /** Only the folders' own stamps: each file's are in the stamps file. */
    folders: FolderHead[];
    heading: string;
    full: StoredItems;
    digest: StoredItems;
    special: MemoryColumns;
    problems: MemoryLoadProblem[];
  };
  /**
   * The memories newest first (`inboxInOrder`) and inert (`inertMemory`): read back, the block
   * need not sort them, nor the load make them inert — what they are read for is injecting them.
   */
  inbox: { folders: PackedFolderStamps[]; memories: MemoryColumns; problems: MemoryLoadProblem[] };
}

/** The stamps file beside a prepared load: each long-term file's stamp, under the id its load names. */
interface StoredStamps {
  format: string;
  roleDir: string;
  id: string;
  folders: FolderStamps[];
}

/** Where a role's prepared load and its stamps are (prepared-paths.ts). */
export interface PreparedFiles {
  load: string;
  stamps: string;
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
  /** `loadSpecialMemories` of the long-term memories, in file order. */
  special: StoredMemory[];
  problems: MemoryLoadProblem[];
  until: number;
}

export interface PreparedInboxPart {
  folders: FolderStamps[];
  /** Read back from a prepared load: frozen, inert, in the inbox block's order (rememberInboxOrder). */
  memories: readonly StoredMemory[];
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

/** The inbox part as read back: its files' stamps only when a full check unpacked them (packed-folder-stamps.ts). */
export type FoundInboxPart = Omit<PreparedInboxPart, 'folders'> & { folders?: FolderStamps[] };

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
    const inboxList = fromMemoryColumns(inbox.memories, roleDir, key.roleId, INBOX_CATEGORIES);
    if (!special || !inboxList) return NONE;
    const inboxMemories = Object.freeze(inboxList);
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
      longTerm: { stamps, prepared: fromStored(longTerm, key), special, problems: longTerm.problems, until },
      ...(inboxHolds
        ? { inbox: { ...(inboxStamps ? { folders: settledInbox ?? inboxStamps } : {}), memories: inboxMemories, problems: inbox.problems } }
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

/** Names a stamps file for one load: another load's stamps (a write cut short between the two files) are never taken for its own. */
function newStampsId(): string {
  return `${Date.now().toString(36)}-${process.pid.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * The prepared items back, with what fitting and narrowing them would otherwise find by a pass
 * over all 7,600 (their rooms, where the project-specific ones are) worked out on the way.
 */
function fromStored(longTerm: StoredLoad['longTerm'], key: PreparedLoadKey): PreparedLongTermMemory {
  const full = fromStoredItems(longTerm.full);
  const digest = fromStoredItems(longTerm.digest);
  const prepared = { heading: longTerm.heading, full: full.items, digest: digest.items, language: key.language };
  rememberItemRooms(prepared, { full: full.rooms, digest: digest.rooms, pinnedDigest: digest.pinnedRoom });
  rememberSpecificItems(prepared, { full: full.specific, digest: digest.specific });
  return prepared;
}

/**
 * An item without kept fields (nearly all) shares its folder's memory object: nothing changes a
 * prepared item's memory, and 7,600 pairs of small objects were a tenth of reading a load back.
 */
const PLAIN_MEMORIES: readonly PreparedItemMemory[] = CATEGORIES.map((category) => Object.freeze({ category, extra: Object.freeze({}) }));

function fromStoredItems(stored: StoredItems): { items: PreparedItem[]; rooms: number[]; pinnedRoom: number; specific: number[] } {
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
  // Only kept fields carry a project (toStoredItems), so only those items can be project-specific.
  const specific = stored.kept.filter(([, fields]) => fields[PROJECT_SPECIFIC_KEY] !== undefined).map(([index]) => index);
  return { items, rooms, pinnedRoom, specific };
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

/**
 * Write the prepared load, atomically (a reader sees the old file or the new one). Fresh stamps
 * go to a new stamps file first, so a load on disk never names stamps that are not there.
 */
export function writePreparedLoad(
  files: PreparedFiles,
  roleDir: string,
  key: PreparedLoadKey,
  from: Date,
  longTerm: PreparedLongTermPart,
  inbox: PreparedInboxPart,
): void {
  const { stamps } = longTerm;
  let kept: { id: string; folders: FolderHead[]; files: number };
  if ('fresh' in stamps) {
    kept = {
      id: newStampsId(),
      folders: stamps.fresh.map(headOf),
      files: fileCount(stamps.fresh),
    };
    const stored: StoredStamps = { format: STAMPS_FORMAT, roleDir, id: kept.id, folders: stamps.fresh };
    writeFileAtomicSync(files.stamps, JSON.stringify(stored), { durable: false });
  } else kept = stamps.kept;
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
      full: toStoredItems(longTerm.prepared.full),
      digest: toStoredItems(longTerm.prepared.digest),
      special: toMemoryColumns(longTerm.special, roleDir, key.roleId),
      problems: longTerm.problems,
    },
    inbox: {
      folders: inbox.folders.map(packFolderStamps),
      memories: toMemoryColumns(inboxInOrder(inbox.memories).map(inertMemory), roleDir, key.roleId),
      problems: inbox.problems,
    },
  };
  // A cache: losing it in a power cut only costs the next load its head start.
  writeFileAtomicSync(files.load, utf16Bytes(JSON.stringify(stored)), { durable: false });
}

// Checks of the stored shape: a garbled or hand-made file must not reach the assembly.

const isCategoryIndex = (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) < CATEGORIES.length;

function isStoredItems(value: unknown): value is StoredItems {
  if (!isPlainObject(value)) return false;
  const { texts, categories, kept } = value;
  if (!Array.isArray(texts) || !Array.isArray(categories) || categories.length !== texts.length) return false;
  // Kept fields in item order, each for an item there is.
  return texts.every(isString) && categories.every(isCategoryIndex) && indexedEntries(kept, texts.length, isPlainObject) !== undefined;
}

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
    isStoredItems(longTerm.full) &&
    isStoredItems(longTerm.digest) &&
    Array.isArray(longTerm.problems) &&
    longTerm.problems.every(isProblem) &&
    Array.isArray(inbox.problems) &&
    inbox.problems.every(isProblem)
  );
}
