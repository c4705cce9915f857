import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CORE_LAYERS } from './check-imports.mjs';

const script = path.resolve('scripts/check-imports.mjs');
let root: string;

function tree(files: Record<string, string>): string {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-imports-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

function check(dir: string) {
  const result = spawnSync(process.execPath, [script, dir], { encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
  return { code: result.status, out: result.stdout + result.stderr };
}

afterEach(() => root && fs.rmSync(root, { recursive: true, force: true }));

describe('check-imports', () => {
  it('accepts imports that follow the layering', () => {
    const dir = tree({
      'common/a.ts': 'export const a = 1;\n',
      'main/core/platform/p/b.ts': "import { a } from '../../../../common/a.js';\nexport const b = a;\n",
      'main/core/hosts/h/c.ts': "import { b } from '../../platform/p/b.js';\nexport const c = b;\n",
      'main/cli/c.ts': "import { c } from '../core/hosts/h/c.js';\nvoid c;\n",
    });
    expect(check(dir)).toMatchObject({ code: 0 });
  });

  it('refuses core importing electron, renderer importing core, and common importing node:', () => {
    const dir = tree({
      'common/a.ts': "import fs from 'node:fs';\nvoid fs;\n",
      'main/core/store/s/b.ts': "import { app } from 'electron';\nvoid app;\n",
      'renderer/src/c.ts': "import { b } from '../../main/core/store/s/b.js';\nvoid b;\n",
    });
    const result = check(dir);
    expect(result.code).toBe(1);
    expect(result.out).toContain('common may not import "node:fs"');
    expect(result.out).toContain('core may not import "electron"');
    expect(result.out).toContain('renderer may not import core');
  });

  it('follows the hook client through core to a native module', () => {
    const dir = tree({
      'hooks/client.ts': "import { q } from '../main/core/store/db/store.js';\nvoid q;\n",
      'main/core/store/db/store.ts': "import Database from 'better-sqlite3';\nexport const q = Database;\n",
    });
    const result = check(dir);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/hook client loads "better-sqlite3" via hooks\/client\.ts → main\/core\/store\/db\/store\.ts/);
  });

  it('ignores type-only imports for the hook closure', () => {
    const dir = tree({
      'hooks/client.ts': "import type { Q } from '../main/core/store/db/store.js';\nexport type R = Q;\n",
      'main/core/store/db/store.ts': "import Database from 'better-sqlite3';\nexport type Q = typeof Database;\n",
    });
    expect(check(dir).code).toBe(0);
  });

  it('refuses an import into a higher core layer, a type-only one too', () => {
    const dir = tree({
      'main/core/platform/text/words.ts': "import { plan } from '../../engine/sleep/plan.js';\nexport const words = plan;\n",
      'main/core/store/memory/file.ts': "import type { Plan } from '../../engine/sleep/plan.js';\nexport type F = Plan;\n",
      'main/core/engine/sleep/plan.ts': 'export const plan = 1;\nexport type Plan = number;\n',
    });
    const result = check(dir);
    expect(result.code).toBe(1);
    expect(result.out).toContain('main/core/platform/text/words.ts: layer platform may not import the higher layer engine');
    expect(result.out).toContain('main/core/store/memory/file.ts: layer store may not import the higher layer engine');
  });

  it('refuses folders that import each other, in one layer or round a loop', () => {
    const dir = tree({
      'main/core/store/a/a.ts': "import { b } from '../b/b.js';\nexport const a = b;\n",
      'main/core/store/b/b.ts': "import { c } from '../c/c.js';\nexport const b = c;\n",
      'main/core/store/c/c.ts': "import type { A } from '../a/types.js';\nexport const c: A = 1;\n",
      'main/core/store/a/types.ts': 'export type A = number;\n',
      'main/core/store/d/d.ts': "import { c } from '../c/c.js';\nexport const d = c;\n",
    });
    const result = check(dir);
    expect(result.code).toBe(1);
    expect(result.out).toContain('main/core folders import each other: store/a, store/b, store/c (');
    expect(result.out).not.toContain('store/d,');
  });

  it('refuses a core file outside a layer folder', () => {
    const dir = tree({ 'main/core/capture/turn.ts': 'export const t = 1;\n', 'main/core/engine/loose.ts': 'export const l = 1;\n' });
    const result = check(dir);
    expect(result.code).toBe(1);
    expect(result.out).toContain('main/core/capture/turn.ts: not in a layer folder');
    expect(result.out).toContain('main/core/engine/loose.ts: not in a layer folder');
  });
});

describe('docs/architecture.md §Layers inside main/core', () => {
  const doc = fs.readFileSync(path.resolve('docs/architecture.md'), 'utf8');
  const section = doc.match(/<!-- core-layers[^\n]*-->([\s\S]*?)<!-- \/core-layers -->/)?.[1] ?? '';
  const names = CORE_LAYERS.map(([name]) => name);

  it('draws the layers of check-imports.mjs in its order', () => {
    const mermaid = section.match(/```mermaid\n([\s\S]*?)```/)?.[1] ?? '';
    const arrows = [...mermaid.matchAll(/^\s*([\w-]+)\s*-->\s*([\w-]+)\s*$/gm)].map((m) => `${m[1]} --> ${m[2]}`);
    const expected = names.slice(1).map((upper, i) => `${upper} --> ${names[i]}`).reverse();
    expect(arrows).toEqual(expected);
  });

  it('lists each folder of each layer on disk once, in its layer', () => {
    const rows = [...section.matchAll(/^\|\s*([\w-]+)\s*\|\s*`([\w-]+)\/`\s*\|\s*\S.*\|\s*$/gm)].map((m) => `${m[1]}/${m[2]}`);
    const layersInTable = [...new Set(rows.map((row) => row.split('/')[0]))];
    expect(layersInTable).toEqual(names);
    const onDisk = names.flatMap((layer) =>
      fs
        .readdirSync(path.resolve('main/core', layer), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${layer}/${entry.name}`),
    );
    expect([...rows].sort()).toEqual(onDisk.sort());
    expect(fs.readdirSync(path.resolve('main/core')).sort()).toEqual([...names].sort());
  });
});

