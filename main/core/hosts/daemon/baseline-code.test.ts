import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleEntry } from '../../../../test/helpers/bundle-entry.js';
import { runModuleScript } from '../../../../test/helpers/module-script.js';

/**
 * The daemon's hosts ask V8 for baseline code at run time (baseline-code.ts). Whether a function
 * runs as baseline code is only told by V8 itself (%ActiveTierIsSparkplug, a native behind
 * --allow-natives-syntax), so a fresh process asks it: once without the call, once with it.
 */
function tiers(prefer: boolean): { before: boolean; after: boolean } {
  const built = bundleEntry('main/core/hosts/daemon/baseline-code.ts');
  // `before` runs before the call, `after` only after it: each is compiled at its first call.
  const script = `import { preferBaselineCode } from ${JSON.stringify(pathToFileURL(built).href)};
const isBaseline = new Function('f', 'return %ActiveTierIsSparkplug(f)');
function before(a) { return a + 1; }
before(1);
if (process.argv[1] === 'prefer') preferBaselineCode();
function after(a) { return a + 1; }
after(1);
process.stdout.write(JSON.stringify({ before: isBaseline(before), after: isBaseline(after) }));`;
  return runModuleScript<{ before: boolean; after: boolean }>(script, [prefer ? 'prefer' : 'no'], ['--allow-natives-syntax']);
}

describe('preferBaselineCode', () => {
  it('makes functions compiled after it run as baseline code, and leaves a process that does not call it interpreted', () => {
    expect(tiers(false)).toEqual({ before: false, after: false });
    expect(tiers(true)).toEqual({ before: false, after: true });
  });
});
