import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KIOKU_BIN } from '../helpers/run-cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { killAndWait, runNodeArgs, waitFor, waitReady, type ChildRun } from '../ipc/daemon-kit.js';

/**
 * `kioku daemon` as users start it (bin/kioku.js) asks V8 for baseline code before the CLI is
 * loaded (main/core/hosts/daemon/baseline-code.ts). Asked later, once the CLI had read its
 * command line and settings, it made no difference the bench could see, so where it is asked
 * matters as much as that it is. A probe preloaded into the daemon answers SIGUSR2 with the tier
 * of a function it compiles then: only V8 can tell (%ActiveTierIsSparkplug, --allow-natives-syntax).
 */
const PROBE = `process.on('SIGUSR2', () => {
  const isBaseline = new Function('f', 'return %ActiveTierIsSparkplug(f)');
  const fresh = new Function('a', 'return a + 1');
  fresh(1);
  require('node:fs').writeSync(2, 'probe: ' + isBaseline(fresh) + '\\n');
});
`;

let home: TempHome | undefined;
let daemon: ChildRun | undefined;
afterEach(async () => {
  if (daemon) await killAndWait(daemon);
  daemon = undefined;
  home?.cleanup();
  home = undefined;
});

describe('kioku daemon', () => {
  it('runs what it compiles as baseline code, asked for before the CLI is loaded', async () => {
    const h = (home = makeTempHome());
    const probe = path.join(h.root, 'tier-probe.cjs');
    fs.writeFileSync(probe, PROBE);
    const run = (daemon = runNodeArgs(['--allow-natives-syntax', '--require', probe, KIOKU_BIN, 'daemon'], h.env));
    await waitReady(h, run);
    run.child.kill('SIGUSR2');
    const answer = await waitFor(() => /probe: (true|false)/.exec(run.output().stderr)?.[1], 'the tier probe to answer');
    expect(answer).toBe('true');
  });
});
