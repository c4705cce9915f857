import { BrowserWindow, dialog, shell } from 'electron';
import { APP_ENTRY_URL } from '../../common/ui-ipc.js';
import type { UiEventMessage } from '../../common/ui-contract.js';
import { UI_IPC_EVENT_CHANNEL } from '../../common/ui-ipc.js';
import type { Logger } from '../core/platform/config/log.js';
import type { AppWindowPort } from './app-host-logic.js';
import type { TrayLocale } from '../core/hosts/tray/tray-text.js';
import { closesAnyway, unloadPrompt } from './unload-prompt-logic.js';
import { decideNavigation, decideWindowOpen, type NavigationDecision } from './window-policy-logic.js';

export interface WindowManagerOptions {
  preloadFile: string;
  iconFile: string;
  logger: Logger;
  /** The page has loaded: it can hear events now. */
  onLoaded(): void;
  /** The window is gone (the app stays in the tray). */
  onClosed(): void;
  /** The language of the window's own question about unsaved typing. */
  locale?: TrayLocale;
}

/**
 * The one Kioku window, locked down (Electron security checklist): context isolation, the
 * sandbox, no Node in the page, web security on, no webviews, no navigation away from our page,
 * no new windows (web links open in the system browser), and only our preload's bridge.
 */
export function createWindowManager(options: WindowManagerOptions): AppWindowPort {
  let window: BrowserWindow | undefined;

  const follow = (decision: NavigationDecision, url: string, prevent: () => void) => {
    if (decision.allow) return;
    prevent();
    if (decision.openExternally) void shell.openExternal(decision.openExternally);
    else options.logger.warn('app', `the window may not go to ${url.slice(0, 200)}`);
  };

  const create = (): BrowserWindow => {
    const created = new BrowserWindow({
      width: 1200,
      height: 820,
      minWidth: 720,
      minHeight: 480,
      show: false,
      title: '記憶 Kioku',
      icon: options.iconFile,
      autoHideMenuBar: true,
      webPreferences: {
        preload: options.preloadFile,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        navigateOnDragDrop: false,
        spellcheck: false,
      },
    });
    const contents = created.webContents;
    contents.on('will-navigate', (event) => follow(decideNavigation(event.url), event.url, () => event.preventDefault()));
    contents.on('will-redirect', (event) => follow(decideNavigation(event.url), event.url, () => event.preventDefault()));
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      follow(decideWindowOpen(url), url, () => undefined);
      return { action: 'deny' };
    });
    contents.on('did-finish-load', () => options.onLoaded());
    // The page refused to unload (unsaved typing): Electron would cancel the close silently.
    contents.on('will-prevent-unload', (event) => {
      const prompt = unloadPrompt(options.locale ?? 'zh-TW');
      const answer = dialog.showMessageBoxSync(created, {
        type: 'question',
        title: prompt.title,
        message: prompt.message,
        detail: prompt.detail,
        buttons: prompt.buttons,
        defaultId: prompt.stayIndex,
        cancelId: prompt.stayIndex,
        noLink: true,
      });
      if (closesAnyway(prompt, answer)) event.preventDefault(); // preventDefault here means: ignore beforeunload, close
    });
    created.once('ready-to-show', () => created.show());
    created.on('closed', () => {
      if (window === created) window = undefined;
      options.onClosed();
    });
    return created;
  };

  return {
    show(route) {
      if (!window) {
        window = create();
        void window.loadURL(APP_ENTRY_URL + (route ?? ''));
        return;
      }
      // Only the hash differs: the page stays, the UI changes view.
      if (route) void window.loadURL(APP_ENTRY_URL + route);
      if (window.isMinimized()) window.restore();
      window.show();
      window.focus();
    },
    send(message: UiEventMessage) {
      if (window && !window.isDestroyed()) window.webContents.send(UI_IPC_EVENT_CHANNEL, message);
    },
  };
}
