import { useEffect } from 'react';

/**
 * Unsaved typing kept for this tab (sessionStorage) while the user moves between views: a form
 * stores its draft with the value it started from, and gets it back on return only when that
 * base is still what it loads (a file changed meanwhile makes the draft stale, so it is dropped).
 * Nothing here writes a user file; the draft goes when the form is saved or emptied.
 */
const PREFIX = 'kioku.draft.';

interface Stored<T> {
  base: T;
  value: T;
}

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // storage blocked: the leave guard still asks
  }
}

/** The kept draft for `key` when it was made from this same `base`. */
export function readDraft<T>(key: string, base: T): T | undefined {
  const raw = storage()?.getItem(PREFIX + key);
  if (!raw) return undefined;
  try {
    const stored = JSON.parse(raw) as Stored<T>;
    if (JSON.stringify(stored.base) === JSON.stringify(base)) return stored.value;
  } catch {
    /* unreadable: dropped below */
  }
  clearDraft(key);
  return undefined;
}

export function clearDraft(key: string): void {
  storage()?.removeItem(PREFIX + key);
}

/** Keep `value` as the draft while it differs from `base`; forget it once they agree again. */
export function useKeepDraft<T>(key: string | undefined, base: T | undefined, value: T | undefined, dirty: boolean): void {
  const loaded = base !== undefined && value !== undefined;
  const json = dirty && key !== undefined ? JSON.stringify({ base, value }) : undefined;
  useEffect(() => {
    // Before the form has loaded there is nothing to compare: a kept draft must survive until it is read.
    if (key === undefined || !loaded) return;
    try {
      if (json !== undefined) storage()?.setItem(PREFIX + key, json);
      else clearDraft(key);
    } catch {
      /* over quota: the draft is not kept, the leave guard still asks */
    }
  }, [key, json, loaded]);
}
