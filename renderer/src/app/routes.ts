import { useEffect, useState } from 'react';
import type { MessageKey } from '../i18n/messages-zh-TW.js';
import { blockLeaving, releaseLeaveGuards } from './leave-guard.js';

/** The views of the left navigation, in its order (APP-2). */
export const VIEWS = ['roles', 'timeline', 'sleep', 'bonds', 'mindmap', 'journal', 'facts', 'preview', 'status', 'settings'] as const;
export type ViewId = (typeof VIEWS)[number];

export const VIEW_LABELS: Record<ViewId, MessageKey> = {
  roles: 'nav.roles',
  timeline: 'nav.timeline',
  sleep: 'nav.sleep',
  bonds: 'nav.bonds',
  mindmap: 'nav.mindmap',
  journal: 'nav.journal',
  facts: 'nav.facts',
  preview: 'nav.preview',
  status: 'nav.status',
  settings: 'nav.settings',
};

export type Route =
  | { view: 'roles'; page: { kind: 'list' } | { kind: 'new' } | { kind: 'edit'; id: string } | { kind: 'emoji'; id: string } }
  | { view: Exclude<ViewId, 'roles'> };

/**
 * Hash routes (`#/roles/ENGINEER01/edit`): they work the same from a file:// page in Electron
 * and from the headless server, which then serves one page only.
 */
export function parseRoute(hash: string): Route {
  // A view may keep its own state after `?` (the timeline's filters, issue 16).
  const parts = hash.replace(/^#\/?/, '').split('?')[0]!.split('/').filter(Boolean).map(decodeURIComponent);
  const [view, second, third] = parts;
  if (view === 'roles' || view === undefined) {
    if (second === 'new') return { view: 'roles', page: { kind: 'new' } };
    if (second && third === 'edit') return { view: 'roles', page: { kind: 'edit', id: second } };
    if (second && third === 'emoji') return { view: 'roles', page: { kind: 'emoji', id: second } };
    return { view: 'roles', page: { kind: 'list' } };
  }
  if ((VIEWS as readonly string[]).includes(view)) return { view: view as Exclude<ViewId, 'roles'> };
  return { view: 'roles', page: { kind: 'list' } };
}

export function hrefFor(route: Route): string {
  if (route.view !== 'roles') return `#/${route.view}`;
  if (route.page.kind === 'new') return '#/roles/new';
  if (route.page.kind === 'edit') return `#/roles/${encodeURIComponent(route.page.id)}/edit`;
  if (route.page.kind === 'emoji') return `#/roles/${encodeURIComponent(route.page.id)}/emoji`;
  return '#/roles';
}

/** The app moving on by itself (after a save): what the page held is no longer unsaved. */
export function navigate(route: Route): void {
  releaseLeaveGuards();
  window.location.hash = hrefFor(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = (event: HashChangeEvent) => {
      if (blockLeaving(event.oldURL, window.location.hash)) return;
      setRoute(parseRoute(window.location.hash));
    };
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
