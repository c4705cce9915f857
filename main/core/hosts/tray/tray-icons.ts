import path from 'node:path';
import type { TrayIconName } from './tray-model.js';

/**
 * Where a tray icon is: `resources/tray/<size>/<state>.png`, with `<state>@2x.png` beside it for
 * HiDPI screens (Electron's nativeImage picks the @2x file itself when given the 1x path).
 * scripts/gen-tray-icons.mjs draws them.
 *
 * Sizes: Windows and macOS draw tray icons at 16 px (logical); Linux panels ask for 22–24 px and
 * scale down, so they get the sharper 32 px drawing.
 */
export const TRAY_ICON_SIZES = [16, 32] as const;
export type TrayIconSize = (typeof TRAY_ICON_SIZES)[number];

export function trayIconSizeFor(platform: NodeJS.Platform): TrayIconSize {
  return platform === 'linux' ? 32 : 16;
}

export function trayIconFile(resourcesDir: string, icon: TrayIconName, platform: NodeJS.Platform): string {
  return path.join(resourcesDir, 'tray', String(trayIconSizeFor(platform)), `${icon}.png`);
}
