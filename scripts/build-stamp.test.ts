import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { buildIsCurrent, writeBuildStamp } from './build-stamp.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function treeWithSourceAt(mtimeMs: number): { root: string; source: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-stamp-'));
  roots.push(root);
  fs.mkdirSync(path.join(root, 'main', 'core'), { recursive: true });
  fs.mkdirSync(path.join(root, 'dist'));
  const source = path.join(root, 'main', 'core', 'a.ts');
  fs.writeFileSync(source, 'export const a = 1;\n');
  fs.utimesSync(source, mtimeMs / 1000, mtimeMs / 1000);
  return { root, source };
}

describe('build stamp (pretest reuses a current build)', () => {
  const t0 = Date.UTC(2026, 0, 1);

  it('is not current without a stamp', () => {
    const { root } = treeWithSourceAt(t0);
    expect(buildIsCurrent(root)).toBe(false);
  });

  it('is current when the build started after every source changed', () => {
    const { root } = treeWithSourceAt(t0);
    writeBuildStamp(root, t0 + 1000);
    expect(buildIsCurrent(root)).toBe(true);
  });

  it('is stale once any source is newer than the build, in any input folder', () => {
    const { root, source } = treeWithSourceAt(t0);
    writeBuildStamp(root, t0 + 1000);
    fs.utimesSync(source, (t0 + 2000) / 1000, (t0 + 2000) / 1000);
    expect(buildIsCurrent(root)).toBe(false);
    fs.utimesSync(source, t0 / 1000, t0 / 1000);
    fs.mkdirSync(path.join(root, 'renderer', 'src'), { recursive: true });
    const view = path.join(root, 'renderer', 'src', 'App.tsx');
    fs.writeFileSync(view, 'export {};\n');
    fs.utimesSync(view, (t0 + 5000) / 1000, (t0 + 5000) / 1000);
    expect(buildIsCurrent(root)).toBe(false);
  });

  it('ignores what the build writes or the tests leave (dist, results)', () => {
    const { root } = treeWithSourceAt(t0);
    writeBuildStamp(root, t0 + 1000);
    const output = path.join(root, 'dist', 'x.js');
    fs.writeFileSync(output, '');
    fs.utimesSync(output, (t0 + 9000) / 1000, (t0 + 9000) / 1000);
    expect(buildIsCurrent(root)).toBe(true);
  });
});
