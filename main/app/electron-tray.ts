import { Menu, Tray, nativeImage } from 'electron';
import type { TrayPort } from '../core/hosts/tray/tray-controller.js';
import type { TrayIconName } from '../core/hosts/tray/tray-model.js';
import { trayMenuTemplate } from './tray-menu-template.js';

/** A 16 px menu icon from a role's sheet cell; none when the file cannot be read (the label still has the emoji). */
function menuIcon(file: string): Electron.NativeImage | undefined {
  const image = nativeImage.createFromPath(file);
  return image.isEmpty() ? undefined : image.resize({ width: 16, height: 16, quality: 'best' });
}

/** Electron's Tray behind the core's TrayPort: the whole Electron side of the tray. */
export function createElectronTray(iconFile: (icon: TrayIconName) => string, onClick: () => void): TrayPort & { destroy(): void } {
  const tray = new Tray(nativeImage.createFromPath(iconFile('awake')));
  // Windows and macOS open the window on a click; Linux AppIndicator only ever shows the menu.
  tray.on('click', onClick);
  return {
    setImage: (icon) => tray.setImage(nativeImage.createFromPath(iconFile(icon))),
    setToolTip: (text) => tray.setToolTip(text),
    setMenu: (items, onAction) => tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(items, onAction, menuIcon))),
    destroy: () => tray.destroy(),
  };
}
