import { HOOK_CLIENT_MARK } from './hook-registrations.js';

/**
 * Pure edits of a settings file's `hooks` object, shaped `{Event: [{matcher?, hooks:[entry…]}]}`
 * in all three assistants. Only entries that are ours are touched; everything else — other
 * tools' entries, their groups, keys that are not event arrays (Gemini's `enabled`,
 * `disabled`) and anything of a shape we do not know — is kept as it was, in its order.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Ours: the command (or an argument) runs the Kioku hook client, or Gemini's `name` says so. */
export function isKiokuHook(entry: unknown): boolean {
  if (!isObject(entry)) return false;
  if (typeof entry.command === 'string' && entry.command.includes(HOOK_CLIENT_MARK)) return true;
  if (Array.isArray(entry.args) && entry.args.some((arg) => typeof arg === 'string' && arg.includes(HOOK_CLIENT_MARK))) return true;
  return typeof entry.name === 'string' && entry.name.startsWith('kioku-');
}

export interface KiokuHookFound {
  /** The event key it sits under. */
  native: string;
  matcher: unknown;
  entry: Json;
  /** Its place: the group's index under the event and the entry's in the group (Codex keys trust by them). */
  groupIndex: number;
  handlerIndex: number;
}

/** Every Kioku entry in a hooks object, in file order. */
export function findKiokuHooks(hooks: Json): KiokuHookFound[] {
  const found: KiokuHookFound[] = [];
  for (const [native, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group: unknown, groupIndex) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((entry: unknown, handlerIndex) => {
        if (isKiokuHook(entry)) found.push({ native, matcher: group.matcher, entry: entry as Json, groupIndex, handlerIndex });
      });
    });
  }
  return found;
}

/**
 * A copy of the hooks object without Kioku's entries. A group left empty by the removal goes,
 * and so does an event key left with no groups; groups and keys that were empty before stay.
 */
export function removeKiokuHooks(hooks: Json): { hooks: Json; removed: number } {
  const out: Json = {};
  let removed = 0;
  for (const [native, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      out[native] = groups;
      continue;
    }
    const kept: unknown[] = [];
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const entries = group.hooks.filter((entry) => !isKiokuHook(entry));
      const dropped = group.hooks.length - entries.length;
      removed += dropped;
      if (dropped === 0) kept.push(group);
      else if (entries.length > 0) kept.push({ ...group, hooks: entries });
    }
    if (kept.length > 0 || groups.length === 0) out[native] = kept;
  }
  return { hooks: out, removed };
}

/** Append one group per event after whatever the event already has (ours run after the user's). */
export function addGroups(hooks: Json, groups: ReadonlyArray<{ native: string; group: Json }>): Json {
  const out: Json = { ...hooks };
  for (const { native, group } of groups) {
    const existing = out[native];
    out[native] = Array.isArray(existing) ? [...existing, group] : [group];
  }
  return out;
}

/** A comparable fingerprint of a set of Kioku entries (order-free), for "already installed". */
export function fingerprint(items: ReadonlyArray<{ native: string; matcher: unknown; entry: unknown }>): string {
  return items
    .map(({ native, matcher, entry }) => JSON.stringify([native, matcher ?? null, entry]))
    .sort()
    .join('\n');
}
