import { isAppUrl } from './ipc-logic.js';

/**
 * What the Kioku window may do besides showing our page (Electron security checklist: limit
 * navigation, limit new windows, deny permissions). The window only ever shows kioku://app/;
 * the UI moves between views with hash routes, which stay on that page.
 */
export type NavigationDecision = { allow: true } | { allow: false; openExternally?: string };

/** Only web links leave the app, and only to the system browser; never mailto:, file:, custom schemes… */
export function isExternalWebUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * will-navigate (a link without a target, a form, `location = …`): our own page may reload or
 * change its hash; a web link clicked by the user goes to the system browser; anything else is
 * dropped. Script-made navigations count as clicks here, but no script but ours runs (the CSP).
 */
export function decideNavigation(url: string): NavigationDecision {
  if (isAppUrl(url)) return { allow: true };
  if (isExternalWebUrl(url)) return { allow: false, openExternally: url };
  return { allow: false };
}

/** setWindowOpenHandler (target=_blank, window.open): never a new Electron window. */
export function decideWindowOpen(url: string): NavigationDecision & { allow: false } {
  return isExternalWebUrl(url) ? { allow: false, openExternally: url } : { allow: false };
}

/** Permission requests (camera, notifications, clipboard, …): the UI needs none. */
export function decidePermission(_permission: string): false {
  return false;
}
