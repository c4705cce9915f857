import path from 'node:path';
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

export function parsedMemoriesPath(paths: Pick<KiokuPaths, 'stateDir'>, roleId: string): string {
  return path.join(paths.stateDir, 'prepared', `${roleId}.memories.jsonl`);
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
    parsedMemoriesPath(paths, roleId),
  ];
}
