import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MemoryCategory } from '../../../../common/memory.js';
import { isTempFileName } from '../../platform/fs/atomic-write.js';
import { RACY_MS } from '../../platform/fs/file-stamp.js';
import { readMemoryText, type MemoryFileSeen } from '../../store/memory/memory-layout.js';

/**
 * What a prepared load on disk (prepared-load-file.ts) was computed from, told by `stat`: each
 * memory folder's stamp (a file added, removed or renamed in — every atomic save — moves it) and
 * each file's (an edit in place moves its mtime and ctime, a restore with an old mtime its ctime).
 */
export type Stamp = [size: number, mtimeMs: number, ctimeMs: number, ino: number];

/** File times are as coarse as the file system keeps them: a folder or file changed within RACY_MS of being read is "racy". */
export { RACY_MS };

export interface FolderStamps {
  category: MemoryCategory;
  /** Taken before the folder was listed; null: there was no such folder. */
  dir: Stamp | null;
  /** The folder changed too close to its listing for its stamp to tell: listed again when checked. */
  racy: boolean;
  /** Memory files in name order, and their stamps, four numbers each. */
  names: string[];
  stamps: number[];
  /** Per racy file, the hash of the text that was read (UNREADABLE when it could not be: a problem the load only reports). */
  hashes: Record<string, string>;
}

/** A folder's own stamp, without its files': enough to see a file added, removed or saved by rename. */
export type FolderHead = Pick<FolderStamps, 'category' | 'dir' | 'racy'>;

export const headOf = ({ category, dir, racy }: FolderHead): FolderHead => ({ category, dir, racy });

/** How many memory files the folders' stamps cover. */
export const fileCount = (folders: readonly FolderStamps[]): number => folders.reduce((sum, folder) => sum + folder.names.length, 0);

const stampOf = (stat: fs.Stats): Stamp => [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino];
const isMemoryName = (name: string) => name.endsWith('.md') && !name.startsWith('.') && !isTempFileName(name);
const UNREADABLE = '-';
const hashOf = (text: string) => createHash('sha256').update(text).digest('base64');

function statOrNull(file: string): fs.Stats | null {
  return fs.statSync(file, { throwIfNoEntry: false }) ?? null;
}

/**
 * Stamps of the given folders of a role, gathered while `loadRoleMemories` reads them: the folder
 * stamps now (before listing), each file's as it is read (`seen`). `started` is the real time
 * before anything was read — not the config clock, which tests freeze.
 */
export function collectStamps(roleDir: string, categories: readonly MemoryCategory[], started = Date.now()) {
  const racy = (stat: fs.Stats) => stat.ctimeMs >= started - RACY_MS || stat.mtimeMs >= started - RACY_MS;
  const folders = new Map<MemoryCategory, FolderStamps>();
  for (const category of categories) {
    const stat = statOrNull(path.join(roleDir, category));
    folders.set(category, {
      category,
      dir: stat ? stampOf(stat) : null,
      racy: stat ? racy(stat) : false,
      names: [],
      stamps: [],
      hashes: {},
    });
  }
  const seen: MemoryFileSeen = (ref, stat, text) => {
    const folder = folders.get(ref.category);
    if (!folder) return;
    const name = path.basename(ref.path);
    folder.names.push(name);
    folder.stamps.push(...stampOf(stat));
    if (racy(stat)) folder.hashes[name] = text === undefined ? UNREADABLE : hashOf(text);
  };
  return { seen, folders: () => [...folders.values()] };
}

/**
 * Folders just found unchanged, file by file, with the racy mark taken off those whose own stamp
 * is now old enough to tell: a change from now on moves it, so they need no listing again.
 * `nowMs` is the real time (file times are compared with it). The same objects when none settled.
 */
export function settleRacy<T extends FolderHead>(folders: readonly T[], nowMs = Date.now()): T[] | undefined {
  const old = (dir: Stamp | null) => !dir || (dir[1] < nowMs - RACY_MS && dir[2] < nowMs - RACY_MS);
  if (!folders.some((folder) => folder.racy && old(folder.dir))) return undefined;
  return folders.map((folder) => (folder.racy && old(folder.dir) ? { ...folder, racy: false } : folder));
}

/**
 * Whether no folder changed as a whole: no file added, removed or saved by rename. A file saved
 * in place is not seen (that takes `foldersUnchanged`), and neither is a change in a racy folder.
 */
export function dirsUnchanged(roleDir: string, folders: readonly FolderHead[]): boolean {
  return folders.every((folder) => dirUnchanged(path.join(roleDir, folder.category), folder));
}

function dirUnchanged(dir: string, folder: FolderHead): boolean {
  const stat = statOrNull(dir);
  if (!stat || !folder.dir) return !stat && !folder.dir;
  return sameStamp(stampOf(stat), folder.dir, 0);
}

/** Whether every folder and file is as stamped: nothing added, removed or changed since. */
export function foldersUnchanged(roleDir: string, folders: readonly FolderStamps[]): boolean {
  for (const folder of folders) {
    const dir = path.join(roleDir, folder.category);
    if (!dirUnchanged(dir, folder)) return false;
    if (!folder.dir) continue;
    if (folder.racy && !sameItems(fs.readdirSync(dir).filter(isMemoryName).sort(), folder.names)) return false;
    // Ten thousand stats are most of a full check's cost: the names are checked plain file names
    // (isFolderStamps), so the path is joined by hand, without path.join's parsing.
    const prefix = dir + path.sep;
    for (let i = 0; i < folder.names.length; i++) {
      const file = prefix + folder.names[i]!;
      const stat = statOrNull(file);
      if (!stat || !sameStamp(stampOf(stat), folder.stamps, i * 4)) return false;
      const hash = folder.hashes[folder.names[i]!];
      if (hash !== undefined && textHash(file, stat.size) !== hash) return false;
    }
  }
  return true;
}

/** Whether two stampings of the same folders found exactly the same: every folder, file and hash. */
export function sameFolderStamps(a: readonly FolderStamps[], b: readonly FolderStamps[]): boolean {
  return a.length === b.length && a.every((folder, i) => sameFolder(folder, b[i]!));
}

/** Whether two stampings of one folder found exactly the same. */
export function sameFolder(a: FolderStamps, b: FolderStamps): boolean {
  if (a.category !== b.category || a.racy !== b.racy || !sameItems(a.names, b.names)) return false;
  if (a.dir === null || b.dir === null ? a.dir !== b.dir : !sameStamp(a.dir, b.dir, 0)) return false;
  if (!sameItems(a.stamps, b.stamps)) return false;
  const hashes = Object.keys(a.hashes);
  return hashes.length === Object.keys(b.hashes).length && hashes.every((name) => a.hashes[name] === b.hashes[name]);
}

function sameStamp(stamp: Stamp, stored: readonly number[], at: number): boolean {
  return stamp[0] === stored[at] && stamp[1] === stored[at + 1] && stamp[2] === stored[at + 2] && stamp[3] === stored[at + 3];
}

/** Whether two lists hold the same items (by ===) in the same order. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

function textHash(file: string, size: number): string {
  try {
    return hashOf(readMemoryText(file, size));
  } catch {
    return UNREADABLE;
  }
}

const isStamp = (stamp: unknown) => Array.isArray(stamp) && stamp.length === 4 && stamp.every((n) => typeof n === 'number');

/** A stored folder head that is whole and well formed (the file may be garbled). */
export function isFolderHead(value: unknown, category: MemoryCategory): value is FolderHead {
  if (!value || typeof value !== 'object') return false;
  const folder = value as Partial<FolderHead>;
  return folder.category === category && (folder.dir === null || isStamp(folder.dir)) && typeof folder.racy === 'boolean';
}

/** A stored list of folder stamps that is whole and well formed (the file may be garbled). */
export function isFolderStamps(value: unknown, category: MemoryCategory): value is FolderStamps {
  if (!isFolderHead(value, category)) return false;
  const folder = value as Partial<FolderStamps>;
  return (
    Array.isArray(folder.names) &&
    folder.names.every((name) => typeof name === 'string' && isMemoryName(name) && !name.includes('/') && !name.includes('\\')) &&
    Array.isArray(folder.stamps) &&
    folder.stamps.length === folder.names.length * 4 &&
    folder.stamps.every((n) => typeof n === 'number') &&
    !!folder.hashes &&
    typeof folder.hashes === 'object' &&
    Object.values(folder.hashes).every((hash) => typeof hash === 'string')
  );
}
