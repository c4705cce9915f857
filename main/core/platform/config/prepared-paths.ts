import path from 'node:path';
import { ALL_CATEGORIES, type MemoryCategory } from '../../../../common/memory.js';
import type { KiokuPaths } from './paths.js';

/**
 * Where a role's derived loads live: its prepared SessionStart load, the stamps of the files it
 * came from, its long-term items, and its parsed memories (engine/context/prepared-load-file.ts,
 * parsed-memories-file.ts). Named in one place, so that `role delete`
 * (store/roles/role-archive.ts) removes these copies of the role's memory text too.
 */
export function preparedLoadPath(paths: Pick<KiokuPaths, 'stateDir'>, roleId: string): string {
  return path.join(paths.stateDir, 'prepared', `${roleId}.json`);
}

export function preparedStampsPath(paths: Pick<KiokuPaths, 'stateDir'>, roleId: string): string {
  return path.join(paths.stateDir, 'prepared', `${roleId}.stamps.json`);
}

export function preparedItemsPath(paths: Pick<KiokuPaths, 'stateDir'>, roleId: string): string {
  return path.join(paths.stateDir, 'prepared', `${roleId}.items.json`);
}

/**
 * A role's parsed memories of one memory folder: one file per folder, so that a turn, which
 * changes the inbox alone, rewrites the inbox's file and not the other six folders' megabytes.
 */
export function parsedMemoriesPath(paths: Pick<KiokuPaths, 'stateDir'>, roleId: string, category: MemoryCategory): string {
  return path.join(paths.stateDir, 'prepared', `${roleId}.memories.${category}.jsonl`);
}

/** Where every folder's parsed memories were, in one file, before they were split by folder. */
export function legacyParsedMemoriesPath(paths: Pick<KiokuPaths, 'stateDir'>, roleId: string): string {
  return path.join(paths.stateDir, 'prepared', `${roleId}.memories.jsonl`);
}

/** A role's parsed memories files: each folder's, and the one they replace (removed when they are written). */
export interface ParsedMemoriesFiles {
  folder(category: MemoryCategory): string;
  legacy: string;
}

export function parsedMemoriesFiles(paths: Pick<KiokuPaths, 'stateDir'>, roleId: string): ParsedMemoriesFiles {
  return { folder: (category) => parsedMemoriesPath(paths, roleId, category), legacy: legacyParsedMemoriesPath(paths, roleId) };
}

/** A role's prepared load and the stamps and items files that go with it, read and written together. */
export function preparedLoadFiles(paths: Pick<KiokuPaths, 'stateDir'>, roleId: string): { load: string; stamps: string; items: string } {
  return { load: preparedLoadPath(paths, roleId), stamps: preparedStampsPath(paths, roleId), items: preparedItemsPath(paths, roleId) };
}

/** Every derived file of a role (what `role delete` removes). */
export function preparedFilesOf(paths: Pick<KiokuPaths, 'stateDir'>, roleId: string): string[] {
  return [
    preparedLoadPath(paths, roleId),
    preparedStampsPath(paths, roleId),
    preparedItemsPath(paths, roleId),
    ...ALL_CATEGORIES.map((category) => parsedMemoriesPath(paths, roleId, category)),
    legacyParsedMemoriesPath(paths, roleId),
  ];
}
