import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The context builders run inside the hook client (SessionStart's fallback, HOOK-5), which must
 * never load SQLite, secretlint, opencc, tar or commander. scripts/check-imports.mjs follows the
 * hook client's imports; until a hook imports these modules CI would not notice a heavy one, so
 * this test stands a probe hook over every module here and runs the real check on it.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..', '..');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-hook-probe-'));

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('context builders in the hook client', () => {
  it('load nothing the hook client may not load', () => {
    for (const zone of ['main', 'common'])
      fs.symlinkSync(path.join(repo, zone), path.join(root, zone), process.platform === 'win32' ? 'junction' : 'dir');
    fs.mkdirSync(path.join(root, 'hooks'));
    const modules = fs.readdirSync(here).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(modules.length).toBeGreaterThan(10);
    const probe = modules
      .map((name, i) => `import * as m${i} from '../main/core/engine/context/${name.replace(/\.ts$/, '.js')}';\nconsole.log(m${i});`)
      .join('\n');
    fs.writeFileSync(path.join(root, 'hooks', 'probe.ts'), probe);
    const result = spawnSync(process.execPath, [path.join(repo, 'scripts', 'check-imports.mjs'), root], {
      encoding: 'utf8',
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    // Only what the probe reaches is ours to answer for; other folders are checked by CI itself.
    const ours = result.stderr.split('\n').filter((line) => line.includes('hooks/probe.ts') || line.includes('main/core/engine/context/'));
    expect(ours).toEqual([]);
    expect(result.stdout + result.stderr).toMatch(/import boundaries/);
  });
});
