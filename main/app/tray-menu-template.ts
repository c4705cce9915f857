import type { MenuItemConstructorOptions } from 'electron';
import type { TrayAction, TrayMenuItem } from '../core/hosts/tray/tray-model.js';

/** The tray model's menu as Electron menu items (types only: this runs, and is tested, without Electron). */
export function trayMenuTemplate(
  items: readonly TrayMenuItem[],
  onAction: (action: TrayAction) => void,
  menuIcon?: (file: string) => MenuItemConstructorOptions['icon'],
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    if (item.kind === 'separator') return { type: 'separator' };
    if (item.kind === 'header') {
      const icon = item.icon && menuIcon ? menuIcon(item.icon) : undefined;
      return { label: item.label, enabled: false, ...(icon ? { icon } : {}) };
    }
    return {
      label: item.label,
      enabled: item.enabled,
      ...(item.checked === undefined ? {} : { type: 'checkbox' as const, checked: item.checked }),
      click: () => onAction(item.action),
    };
  });
}
