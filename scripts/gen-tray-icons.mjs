// Draw the tray icons (APP-1, SLEEP-7): one per sleep state, at 16 and 32 px, each with an @2x twin
// for HiDPI screens — resources/tray/<size>/<state>.png and <state>@2x.png
// (main/core/hosts/tray/tray-icons.ts finds them) — and the app icon, resources/build/icon.png.
// Design notes: docs/design-notes.md, "scripts/gen-tray-icons.mjs".
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outDir = path.join(root, 'resources', 'tray');

const svg = (body) => `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">${body}</svg>`;

const sunRays = Array.from({ length: 8 }, (_, i) => {
  const angle = (i * Math.PI) / 4;
  const [x1, y1] = [16 + Math.cos(angle) * 10.5, 16 + Math.sin(angle) * 10.5];
  const [x2, y2] = [16 + Math.cos(angle) * 14, 16 + Math.sin(angle) * 14];
  return `<line x1="${x1.toFixed(2)}" y1="${y1.toFixed(2)}" x2="${x2.toFixed(2)}" y2="${y2.toFixed(2)}"/>`;
}).join('');

const moon = (cx, cy, r, color, rim) =>
  `<defs><mask id="m"><rect width="32" height="32" fill="#fff"/><circle cx="${cx + r * 0.55}" cy="${cy - r * 0.5}" r="${r * 0.85}" fill="#000"/></mask></defs>` +
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${color}" stroke="${rim}" stroke-width="1.2" mask="url(#m)"/>`;

export const DRAWINGS = {
  awake: svg(
    `<g stroke="#C77700" stroke-width="2.6" stroke-linecap="round">${sunRays}</g>` +
      `<circle cx="16" cy="16" r="7.5" fill="#FFB020" stroke="#C77700" stroke-width="1.2"/>`,
  ),
  asleep: svg(moon(15, 17, 12, '#6E7BFF', '#3B47C4')),
  napping: svg(
    moon(13, 19, 10.5, '#6E7BFF', '#3B47C4') +
      `<path d="M20.5 3.5h8l-8 9h8" fill="none" stroke="#5A67F2" stroke-width="2.8" stroke-linecap="round" stroke-linejoin="round"/>`,
  ),
  consolidating: svg(
    `<path d="M26.5 16A10.5 10.5 0 1 1 21.5 7.1" fill="none" stroke="#0F9F8F" stroke-width="3.4" stroke-linecap="round"/>` +
      `<path d="M19.2 2.6l6.6 3.2-4.4 5.9z" fill="#0F9F8F" stroke="#0B7A6E" stroke-width="1" stroke-linejoin="round"/>` +
      `<circle cx="16" cy="16" r="3.6" fill="#14C2AE" stroke="#0B7A6E" stroke-width="1"/>`,
  ),
  error: svg(
    `<circle cx="16" cy="16" r="13.5" fill="#E5484D" stroke="#A5272B" stroke-width="1.2"/>` +
      `<rect x="14" y="7" width="4" height="11.5" rx="2" fill="#fff"/>` +
      `<circle cx="16" cy="23.5" r="2.3" fill="#fff"/>`,
  ),
};

export const SIZES = [16, 32];

/**
 * The app icon electron-builder turns into .icns/.ico/.png (resources/build/icon.png, 512 px):
 * night and day together — a crescent moon over a small sun — on a rounded indigo tile.
 */
export const APP_ICON = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
<defs>
  <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3B47C4"/><stop offset="1" stop-color="#1E2466"/></linearGradient>
  <mask id="moon"><rect width="512" height="512" fill="#fff"/><circle cx="300" cy="170" r="130" fill="#000"/></mask>
</defs>
<rect x="24" y="24" width="464" height="464" rx="104" fill="url(#bg)"/>
<circle cx="236" cy="246" r="150" fill="#E8EBFF" mask="url(#moon)"/>
<circle cx="352" cy="352" r="46" fill="#FFB020" stroke="#C77700" stroke-width="8"/>
</svg>`;

async function main() {
  for (const size of SIZES) {
    const dir = path.join(outDir, String(size));
    mkdirSync(dir, { recursive: true });
    for (const [state, drawing] of Object.entries(DRAWINGS)) {
      for (const [suffix, scale] of [
        ['', 1],
        ['@2x', 2],
      ]) {
        const px = size * scale;
        // Rasterised at the final size from the vector (density), never scaled from another PNG.
        await sharp(Buffer.from(drawing), { density: (72 * px) / 32 })
          .resize(px, px)
          .png({ compressionLevel: 9 })
          .toFile(path.join(dir, `${state}${suffix}.png`));
      }
    }
  }
  mkdirSync(path.join(root, 'resources', 'build'), { recursive: true });
  await sharp(Buffer.from(APP_ICON))
    .resize(512, 512)
    .png({ compressionLevel: 9 })
    .toFile(path.join(root, 'resources', 'build', 'icon.png'));
  process.stdout.write(
    `gen-tray-icons: wrote resources/build/icon.png and ${SIZES.length * Object.keys(DRAWINGS).length * 2} PNGs under ${path.relative(root, outDir)}/\n`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
