import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/** The hook client built by scripts/build-hooks.mjs, and the CLI for `kioku daemon`. */
export async function bundleHooksBench(root: string, outDir: string): Promise<{ hook: string; cli: string; budgets: string }> {
  // The shipped build script itself, so the bench can never measure a differently built client.
  const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-hooks.mjs'), path.join(outDir, 'hooks')], {
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error(`hooks bench: scripts/build-hooks.mjs failed (exit ${built.status})`);
  const cli = path.join(outDir, 'cli', 'kioku-cli.mjs');
  // The daemon starts as bin/kioku.js starts it: baseline code asked for before the CLI is loaded
  // (baseline-code.ts; a build from before it, under --compare, has none to ask for).
  const baseline = path.join(root, 'main', 'core', 'hosts', 'daemon', 'baseline-code.ts');
  const first = fs.existsSync(baseline)
    ? `import { preferBaselineCode } from ${JSON.stringify(baseline)};\nif (process.argv[2] === 'daemon') preferBaselineCode();\n`
    : '';
  await build({
    stdin: {
      contents: `${first}const { main } = await import(${JSON.stringify(path.join(root, 'main', 'cli', 'kioku.ts'))});\nprocess.exitCode = await main(process.argv);\n`,
      resolveDir: root,
      sourcefile: 'kioku-cli-entry.ts',
      loader: 'ts',
    },
    outfile: cli,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  // The hook's waits for the daemon, from the source (dist/hooks/ is the CommonJS client bundle's
  // folder, where tsc's ESM output of hook-budgets.ts cannot be imported).
  const budgets = path.join(outDir, 'hook-budgets.mjs');
  await build({
    entryPoints: [path.join(root, 'hooks', 'hook-budgets.ts')],
    outfile: budgets,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  return { hook: path.join(outDir, 'hooks', 'kioku-hook.js'), cli, budgets };
}
