// The Electron entry (package.json "main" → dist/main/app/main.js). Kept to what must happen
// before `ready`; everything else is in app-start.ts and, without Electron, app-host-logic.ts.
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
