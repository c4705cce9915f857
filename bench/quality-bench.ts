import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Outcome, ScenarioRun } from './quality/checks.js';
import { findRoot, HarnessError, QualityHome, snapshotBuild, type Mode } from './quality/harness.js';
import { SCENARIOS } from './quality/scenarios.js';
import { writeBenchResults } from './bench-results.js';

/**
 * `npm run bench -- quality`: scripted weeks of real use through the shipped hook client, then
 * named checks of what the assistant would be given. A measurement: exit 0 unless the harness broke.
 * Design notes: docs/design-notes.md, "bench/quality-bench.ts".
 */

interface CheckResult {
  scenario: string;
  name: string;
  pass: boolean;
  why: string;
  sees: string;
}

interface ModeResult {
  mode: Mode;
  passed: number;
  total: number;
  percent: number;
  seconds: number;
  checks: CheckResult[];
  hookStderr: Array<{ scenario: string; event: string; at: string; stderr: string }>;
  /** Hook runs that waited for the daemon in vain and answered from the files / spooled (hooks.log "did not answer"). */
  daemonFallbacks: Record<string, number>;
  nights: Record<string, ScenarioRun['nights']>;
}

export async function runQualityBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      mode: { type: 'string', default: 'daemon,file' },
      scenario: { type: 'string' },
      keep: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
  });
  const modes = values.mode.split(',').map((m) => m.trim()) as Mode[];
  if (modes.some((m) => m !== 'daemon' && m !== 'file')) throw new Error('--mode takes daemon, file or daemon,file');
  const scenarios = values.scenario ? SCENARIOS.filter((s) => values.scenario!.split(',').includes(s.name)) : SCENARIOS;
  if (!scenarios.length) throw new Error(`--scenario: one of ${SCENARIOS.map((s) => s.name).join(', ')}`);
  const root = findRoot(path.dirname(fileURLToPath(import.meta.url)));

  const results: ModeResult[] = [];
  let build: string | undefined;
  try {
    build = await snapshotBuild(root);
    for (const mode of modes) {
      const started = Date.now();
      const result: ModeResult = {
        mode,
        passed: 0,
        total: 0,
        percent: 0,
        seconds: 0,
        checks: [],
        hookStderr: [],
        nights: {},
        daemonFallbacks: {},
      };
      for (const scenario of scenarios) {
        process.stderr.write(`quality bench: ${mode} mode, ${scenario.name}…\n`);
        const home = new QualityHome(build, `${mode}-${scenario.name}`, mode);
        try {
          const run = await scenario.play(home);
          for (const check of scenario.checks) {
            let outcome: Outcome;
            try {
              outcome = check.run(run);
            } catch (error) {
              outcome = { pass: false, why: `the check threw: ${(error as Error).message}` };
            }
            result.checks.push({ scenario: scenario.name, name: check.name, pass: outcome.pass, why: outcome.why, sees: check.sees });
          }
          result.nights[scenario.name] = run.nights;
          const hooksLog = path.join(home.memoryHome, '.kioku', 'logs', 'hooks.log');
          result.daemonFallbacks[scenario.name] = fs.existsSync(hooksLog)
            ? (fs.readFileSync(hooksLog, 'utf8').match(/did not answer/g) ?? []).length
            : 0;
          for (const call of home.hookCalls)
            if (call.stderr)
              result.hookStderr.push({ scenario: scenario.name, event: call.event, at: call.at, stderr: call.stderr.trim().slice(0, 300) });
          if (values.keep) {
            const dump = path.join(home.root, 'contexts');
            fs.mkdirSync(dump, { recursive: true });
            for (const [label, text] of Object.entries(run.ctx)) fs.writeFileSync(path.join(dump, `ctx-${label}.md`), text);
            for (const [label, text] of Object.entries(run.ups)) fs.writeFileSync(path.join(dump, `ups-${label}.md`), text);
            fs.writeFileSync(path.join(dump, 'recall.json'), JSON.stringify(run.recall, null, 2));
            process.stderr.write(`quality bench: kept ${home.root}\n`);
          }
        } finally {
          home.killDaemon();
          if (!values.keep) home.cleanup();
        }
      }
      result.total = result.checks.length;
      result.passed = result.checks.filter((c) => c.pass).length;
      result.percent = Math.round((result.passed / Math.max(1, result.total)) * 1000) / 10;
      result.seconds = Math.round((Date.now() - started) / 100) / 10;
      results.push(result);
    }
  } catch (error) {
    if (error instanceof HarnessError) {
      process.stderr.write(`quality bench: the harness broke: ${error.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw error;
  } finally {
    if (build) fs.rmSync(build, { recursive: true, force: true });
  }

  for (const result of results) {
    process.stdout.write(
      `\nquality bench, ${result.mode} mode: ${result.passed}/${result.total} checks passed (${result.percent}%) in ${result.seconds} s\n`,
    );
    for (const c of result.checks.filter((c) => !c.pass)) process.stdout.write(`  FAIL ${c.scenario}/${c.name}: ${c.why}\n`);
    if (values.verbose)
      for (const c of result.checks.filter((c) => c.pass)) process.stdout.write(`  pass ${c.scenario}/${c.name}: ${c.why}\n`);
    const fallbacks = Object.values(result.daemonFallbacks).reduce((a, b) => a + b, 0);
    if (result.mode === 'daemon' && fallbacks)
      process.stdout.write(
        `  (${fallbacks} hook run(s) did not get the daemon's answer in time and fell back to the files: ${JSON.stringify(result.daemonFallbacks)})\n`,
      );
    if (result.hookStderr.length)
      process.stdout.write(
        `  (${result.hookStderr.length} hook run(s) wrote to stderr; first: ${result.hookStderr[0]!.event} ${result.hookStderr[0]!.stderr})\n`,
      );
  }
  const file = writeBenchResults(
    'quality',
    { scenarios: scenarios.map((s) => ({ name: s.name, description: s.description, checks: s.checks.length })), modes: results },
    root,
  );
  process.stdout.write(`results: ${file}\n`);
  process.stdout.write(`\nresults: ${file}\n`);
}
