/**
 * What a SessionStart derives from a frozen memory list, kept with the list instead of being
 * worked out again over thousands of memories (X-PERF); a list not frozen is computed every time.
 * Design notes: docs/design-notes.md, "main/core/engine/context/list-memo.ts".
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
