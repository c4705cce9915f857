import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

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
      'main/core/b.ts': "import { a } from '../../common/a.js';\nexport const b = a;\n",
      'main/cli/c.ts': "import { b } from '../core/b.js';\nvoid b;\n",
    });
    expect(check(dir)).toMatchObject({ code: 0 });
  });

  it('refuses core importing electron, renderer importing core, and common importing node:', () => {
    const dir = tree({
      'common/a.ts': "import fs from 'node:fs';\nvoid fs;\n",
      'main/core/b.ts': "import { app } from 'electron';\nvoid app;\n",
      'renderer/src/c.ts': "import { b } from '../../main/core/b.js';\nvoid b;\n",
    });
    const result = check(dir);
    expect(result.code).toBe(1);
    expect(result.out).toContain('common may not import "node:fs"');
    expect(result.out).toContain('core may not import "electron"');
    expect(result.out).toContain('renderer may not import core');
  });

  it('follows the hook client through core to a native module', () => {
    const dir = tree({
      'hooks/client.ts': "import { q } from '../main/core/store.js';\nvoid q;\n",
      'main/core/store.ts': "import Database from 'better-sqlite3';\nexport const q = Database;\n",
    });
    const result = check(dir);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/hook client loads "better-sqlite3" via hooks\/client\.ts → main\/core\/store\.ts/);
  });

  it('ignores type-only imports for the hook closure', () => {
    const dir = tree({
      'hooks/client.ts': "import type { Q } from '../main/core/store.js';\nexport type R = Q;\n",
      'main/core/store.ts': "import Database from 'better-sqlite3';\nexport type Q = typeof Database;\n",
    });
    expect(check(dir).code).toBe(0);
  });
});
