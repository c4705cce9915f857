/**
 * How the UI contract (ui-contract.ts) travels over Electron IPC: the names both ends use.
 * The preload allows exactly the contract's channels, each as its own IPC channel, and main
 * registers one handler per channel through one helper (STYLE.md §One typed IPC contract); events
 * come down one channel as UiEventMessage `{event, data}`.
 */
import type { UiChannel } from './ui-contract.js';

const INVOKE_PREFIX = 'kioku:ui:';

/** The IPC channel of a contract channel: `kioku:ui:roles.list`. */
export function ipcChannelOf(channel: UiChannel): string {
  return `${INVOKE_PREFIX}${channel}`;
}

/** Main → window pushes, one UiEventMessage each. */
export const UI_IPC_EVENT_CHANNEL = 'kioku:ui-event';

/**
 * The window's page is served from this scheme, never file:// (Electron security checklist:
 * "avoid the file:// protocol"; file pages may read other local files, and get no response
 * headers, so no CSP header either). main/app serves dist/renderer under it with the CSP.
 */
export const APP_SCHEME = 'kioku';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;
