import type { StoredMemory } from '../../../../common/memory.js';
import { loadExpiryTime } from '../../store/memory/memory-expiry.js';
import { PROJECT_KEY, PROJECT_SPECIFIC_KEY, specificFieldsOf, visibleInProject } from '../../store/projects/memory-project.js';
import type { OlderInboxCount } from './inbox-block.js';
import { loadSpecialMemories } from './load-special-memories.js';
import { indexedEntries, isPlainObject } from './prepared-load-shapes.js';
import { fromMemoryColumns, toMemoryColumns, type MemoryColumns } from './stored-memory-columns.js';

/**
 * The inbox as a prepared load stores it (issue 17, X-PERF): its newest memories whole, and of
 * the older ones only what a load counts them by. The block shows ROLE_LOAD_INBOX_COUNT (10) of
 * them, the sleepy reminder and the "more not shown" note only count the rest — yet at 10,000
 * memories a valid load parsed and made 1,400 whole memories, most of what was left of reading
 * it back. The older ones that a load reads one by one (load-special-memories.ts: brief
 * candidates, project-specific ones) are kept whole too.
 * Design notes: docs/design-notes.md, "main/core/engine/context/prepared-inbox.ts".
 */

/**
 * How many of the newest are kept whole: the block's 10 with room for some that have expired or
 * belong to other projects. A load that finds fewer than its count among them reads the inbox's
 * files instead (file-mode-memories.ts), so this is a matter of speed, never of what is shown.
 */
export const RECENT_INBOX = 64;

export interface StoredInbox {
  /** The newest RECENT_INBOX, in the block's order, inert (prepared-load-file.ts). */
  memories: MemoryColumns;
  older: {
    /** Per older memory, in the block's order: when a load stops injecting it (ms; null: never). */
    expiresAt: Array<number | null>;
    /** The project fields of the older ones that have them, by their index among the older. */
    kept: Array<[index: number, fields: Record<string, unknown>]>;
    /** `loadSpecialMemories` of the older ones, whole, in order. */
    special: MemoryColumns;
  };
}

/** The inbox read back. */
export interface InboxFromDisk {
  recent: StoredMemory[];
  older: StoredInbox['older'];
  /** The older memories a load reads one by one. */
  olderSpecial: StoredMemory[];
}

/** `ordered`: the whole inbox in the block's order, inert. */
export function toStoredInbox(ordered: readonly StoredMemory[], roleDir: string, roleId: string): StoredInbox {
  const older = ordered.slice(RECENT_INBOX);
  const kept: StoredInbox['older']['kept'] = [];
  older.forEach((memory, i) => {
    if (specificFieldsOf(memory.extra))
      kept.push([i, { [PROJECT_KEY]: memory.extra[PROJECT_KEY], [PROJECT_SPECIFIC_KEY]: memory.extra[PROJECT_SPECIFIC_KEY] }]);
  });
  return {
    memories: toMemoryColumns(ordered.slice(0, RECENT_INBOX), roleDir, roleId),
    older: {
      expiresAt: older.map((memory) => loadExpiryTime(memory)?.getTime() ?? null),
      kept,
      special: toMemoryColumns(loadSpecialMemories(older), roleDir, roleId),
    },
  };
}

/** Undefined when anything is not as written (stored-memory-columns.ts `fromMemoryColumns`). */
export function fromStoredInbox(value: unknown, roleDir: string, roleId: string): InboxFromDisk | undefined {
  if (!isPlainObject(value) || !isPlainObject(value.older)) return undefined;
  const { expiresAt, kept, special } = value.older;
  if (!Array.isArray(expiresAt) || !expiresAt.every((time) => time === null || Number.isFinite(time))) return undefined;
  if (indexedEntries(kept, expiresAt.length, isPlainObject) === undefined) return undefined;
  const recent = fromMemoryColumns(value.memories, roleDir, roleId, ['inbox']);
  const olderSpecial = fromMemoryColumns(special, roleDir, roleId, ['inbox']);
  if (!recent || !olderSpecial) return undefined;
  return { recent, older: value.older as StoredInbox['older'], olderSpecial };
}

/** What a session in `project` at `now` is given of the older memories (inbox-block.ts `OlderInboxCount`). */
export function countOlder(older: StoredInbox['older'], project: string | undefined, now: Date): OlderInboxCount {
  const at = now.getTime();
  // A loop over the numbers: 1,400 of them, on every load from a prepared one.
  let visible = older.expiresAt.length;
  let injectable = 0;
  for (const time of older.expiresAt) if (time === null || at < time) injectable++;
  for (const [index, fields] of older.kept) {
    if (visibleInProject(fields, project)) continue;
    visible--;
    const time = older.expiresAt[index];
    if (time === null || at < time!) injectable--;
  }
  return { visible, injectable };
}
