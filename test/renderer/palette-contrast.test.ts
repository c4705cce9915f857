// In test/, not next to base.css: it reads the stylesheet from disk, which the renderer may not.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const css = fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../renderer/src/styles/base.css'), 'utf8');

type Rgba = [number, number, number, number];

/** The custom properties of one rule block (`:root {` or `:root[data-theme='dark'] {`). */
function tokens(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}

function parse(value: string): Rgba {
  const hex = /^#([0-9a-f]{6})$/i.exec(value);
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1]!.slice(i, i + 2), 16)).concat(1) as Rgba;
  const rgb = /^rgb\((\d+) (\d+) (\d+) \/ (\d+)%\)$/.exec(value);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), Number(rgb[4]) / 100];
  throw new Error(`not a colour this test reads: ${value}`);
}

/** A translucent tint as it shows over an opaque colour. */
const over = (top: Rgba, under: Rgba): Rgba => [0, 1, 2].map((i) => top[i]! * top[3] + under[i]! * (1 - top[3])).concat(1) as Rgba;

function contrast(a: Rgba, b: Rgba): number {
  const lum = (c: Rgba) =>
    [0, 1, 2]
      .map((i) => c[i]! / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const TEXT = ['--text', '--text-muted', '--text-faint', '--accent', '--danger', '--success', '--warning'];
const SURFACES = ['--bg', '--surface', '--surface-2', '--surface-hover'];
const ON_TINT = [
  ['--accent-soft-text', '--accent-soft'],
  ['--danger', '--danger-soft'],
  ['--success', '--success-soft'],
  ['--warning', '--warning-soft'],
  ['--text-faint', '--accent-soft'],
] as const;

/** WCAG AA for body text (4.5:1), per theme, for every text colour on every surface and tint. */
describe.each([
  ['light', tokens(':root')],
  ['dark', { ...tokens(':root'), ...tokens(":root[data-theme='dark']") }],
])('the %s palette', (_theme, palette) => {
  const colour = (name: string) => parse(palette[name] ?? '');
  it.each(TEXT.flatMap((text) => SURFACES.map((surface) => [text, surface])))('%s on %s is at least 4.5:1', (text, surface) => {
    expect(contrast(colour(text), colour(surface))).toBeGreaterThanOrEqual(4.5);
  });
  it.each(ON_TINT.flatMap(([text, tint]) => ['--bg', '--surface'].map((surface) => [text, tint, surface])))(
    '%s on %s over %s is at least 4.5:1',
    (text, tint, surface) => {
      expect(contrast(colour(text), over(colour(tint), colour(surface)))).toBeGreaterThanOrEqual(4.5);
    },
  );
});
