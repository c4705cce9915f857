import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { SLEEP_STATES } from '../../../../common/hook-protocol.js';
import { TRAY_ICON_SIZES, trayIconFile, trayIconSizeFor } from './tray-icons.js';

const resources = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'resources');

describe('tray icons (resources/tray, drawn by scripts/gen-tray-icons.mjs)', () => {
  it('has a PNG for every state at every size, @1x and @2x, of the right dimensions and not blank', async () => {
    for (const size of TRAY_ICON_SIZES) {
      for (const state of SLEEP_STATES) {
        for (const [suffix, scale] of [
          ['', 1],
          ['@2x', 2],
        ] as const) {
          const file = path.join(resources, 'tray', String(size), `${state}${suffix}.png`);
          expect(fs.existsSync(file), file).toBe(true);
          const image = sharp(file);
          const meta = await image.metadata();
          expect([meta.format, meta.width, meta.height, meta.hasAlpha], file).toEqual(['png', size * scale, size * scale, true]);
          const { channels } = await image.stats();
          // Something is drawn (alpha not all 0) and something is left clear around it (not all 255).
          expect(channels[3]!.max, file).toBe(255);
          expect(channels[3]!.min, file).toBe(0);
        }
      }
    }
  });

  it('gives each state its own drawing', async () => {
    const digests = await Promise.all(
      SLEEP_STATES.map(async (state) =>
        (
          await sharp(trayIconFile(resources, state, 'linux'))
            .raw()
            .toBuffer()
        ).toString('base64'),
      ),
    );
    expect(new Set(digests).size).toBe(SLEEP_STATES.length);
  });

  it('uses 16 px on Windows and macOS and 32 px on Linux', () => {
    expect(trayIconSizeFor('win32')).toBe(16);
    expect(trayIconSizeFor('darwin')).toBe(16);
    expect(trayIconFile('/r', 'napping', 'linux')).toBe(path.join('/r', 'tray', '32', 'napping.png'));
  });
});
