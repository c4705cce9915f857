/**
 * The daemon hands the same frozen memory list to every hook event until a memory file changes
 * (memory/memory-cache.ts). What a SessionStart derives from that list — and from nothing that
 * changes between events except what `key` names — is kept with the list instead of being worked
 * out again over thousands of memories (X-PERF). A list that is not frozen may still change (the
 * hook's fallback, tests), so it is computed every time; both give the same result.
 */
const kept = new WeakMap<readonly unknown[], Map<string, unknown>>();

export function memoByList<T>(list: readonly unknown[], key: string, compute: () => T): T {
  if (!Object.isFrozen(list)) return compute();
  let byKey = kept.get(list);
  if (!byKey) kept.set(list, (byKey = new Map()));
  if (byKey.has(key)) return byKey.get(key) as T;
  const value = compute();
  byKey.set(key, value);
  return value;
}
