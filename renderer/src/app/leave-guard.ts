import { useEffect } from 'react';

/**
 * Unsaved typing is never dropped without a word: a form with changes registers here
 * (useLeaveGuard), the router asks before leaving its page (routes.ts useRoute), and the tab
 * asks before closing (beforeunload). Module state, not context: the router and the forms sit
 * in different parts of the tree, and there is one window.
 */
/** Each dirty form, and whether it keeps its typing as a draft for this tab (drafts.ts). */
const dirtyForms = new Map<symbol, boolean>();
let asker: ((proceed: () => void, keepsDrafts: boolean) => void) | undefined;

export function hasUnsavedChanges(): boolean {
  return dirtyForms.size > 0;
}

/** Mark this component's form as holding unsaved changes while `dirty` is true. */
export function useLeaveGuard(dirty: boolean, options: { keepsDraft?: boolean } = {}): void {
  const keepsDraft = options.keepsDraft ?? false;
  useEffect(() => {
    if (!dirty) return;
    const key = Symbol('dirty form');
    dirtyForms.set(key, keepsDraft);
    return () => {
      dirtyForms.delete(key);
    };
  }, [dirty, keepsDraft]);
}

/** Forget every registration: the app itself is leaving after a save (routes.ts navigate). */
export function releaseLeaveGuards(): void {
  dirtyForms.clear();
}

/** The dialog that asks (LeaveGuardDialog) registers itself here. */
export function setLeaveAsker(ask: ((proceed: () => void, keepsDrafts: boolean) => void) | undefined): void {
  asker = ask;
}

/**
 * Called by the router on a hash change: when a form is dirty, put the old address back (no
 * hashchange fires for replaceState, so the page stays as it is) and ask; true when blocked.
 */
export function blockLeaving(oldUrl: string, newHash: string): boolean {
  if (!hasUnsavedChanges() || !asker) return false;
  window.history.replaceState(window.history.state, '', oldUrl);
  asker(
    () => {
      releaseLeaveGuards();
      window.location.hash = newHash;
    },
    [...dirtyForms.values()].every(Boolean),
  );
  return true;
}

/** The tab's own question on close or reload; browsers show their own text. */
export function onBeforeUnload(event: BeforeUnloadEvent): void {
  if (!hasUnsavedChanges()) return;
  event.preventDefault();
  event.returnValue = ''; // older Chromium (Electron) needs this set to show the prompt
}
