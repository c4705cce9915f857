import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Test side of test/fixtures/fake-cli/fake-planner.mjs: a bin folder whose `claude`/`codex`/
 * `gemini` are shims to the fake (and the only things on PATH), its environment, its script
 * file and its call log.
 */
const FAKE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'fake-cli', 'fake-planner.mjs');

export function makePlannerBin(root: string, names: readonly string[] = ['claude']): string {
  const bin = fs.mkdtempSync(path.join(root, 'planner-bin-'));
  const script = path.join(bin, 'fake-planner.mjs');
  fs.copyFileSync(FAKE, script);
  for (const name of names) {
    const shim = path.join(bin, name);
    fs.writeFileSync(shim, `#!/bin/sh\nexec "\${FAKE_CLI_NODE:-node}" "${script}" ${name} "$@"\n`);
    fs.chmodSync(shim, 0o755);
  }
  return bin;
}

export interface FakePlannerScript {
  calls?: string[];
  default?: string;
  maxBatch?: number;
  bigMode?: string;
}

export interface FakePlannerSetup {
  bin: string;
  log: string;
  env: NodeJS.ProcessEnv;
  command(name?: string): string;
}

/** A fake planner in `root`: mode by name, or a script; `inbox` is recorded on every call. */
export function fakePlanner(
  root: string,
  how: string | FakePlannerScript,
  options: { names?: string[]; inbox?: string } = {},
): FakePlannerSetup {
  const bin = makePlannerBin(root, options.names);
  const log = path.join(bin, 'calls.log');
  const env: NodeJS.ProcessEnv = { PATH: bin, FAKE_CLI_NODE: process.execPath, FAKE_PLANNER_LOG: log };
  if (typeof how === 'string') env.FAKE_PLANNER_MODE = how;
  else {
    const file = path.join(bin, 'script.json');
    fs.writeFileSync(file, JSON.stringify(how));
    env.FAKE_PLANNER_SCRIPT = file;
  }
  if (options.inbox) env.FAKE_PLANNER_INBOX = options.inbox;
  return { bin, log, env, command: (name = 'claude') => path.join(bin, name) };
}

export interface PlannerCall {
  index: number;
  pid: number;
  name: string;
  mode: string;
  ids: string[];
  env: Record<string, string | null>;
  cwd: string;
  argvHead: string[];
  prompt: string;
  inbox: string[] | null;
}

export function plannerCalls(log: string): PlannerCall[] {
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as PlannerCall);
}
