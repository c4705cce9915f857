// The Electron entry (package.json "main" → dist/main/app/main.js). Kept to what must happen
// before `ready`; everything else is in app-start.ts and, without Electron, app-host-logic.ts.
// First: the app hosts the daemon, whose hook answers run as baseline code when V8 is asked
// before the rest of the app is compiled (baseline-code.ts); ES modules run in import order.
import './prefer-baseline-code.js';
import { app } from 'electron';
import { startApp } from './app-start.js';
import { registerAppScheme } from './electron-session.js';

registerAppScheme();
// One app per user: a second launch only brings the first one's window forward ('second-instance').
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void app.whenReady().then(() => startApp());
}
