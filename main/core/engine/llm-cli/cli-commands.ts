import fs from 'node:fs';
import path from 'node:path';

/**
 * The headless CLIs a condenser can run (ROLE_CLI, SLEEP-6), how to call each so that it fires
 * no hooks and keeps no transcript (SLEEP-6: "A CLI run must not fire this app's own hooks or
 * leave a transcript behind"), and how its stdout is shaped (ASSISTANTS.md).
 */
export const CONDENSER_CLIS = ['claude', 'codex', 'gemini', 'agy', 'opencode', 'copilot'] as const;
export type CondenserCli = (typeof CONDENSER_CLIS)[number];

/** How the answer text is wrapped on stdout. */
export type CliOutputFormat = 'claude-json' | 'gemini-json' | 'opencode-json' | 'text';

export interface CliInvocation {
  args: string[];
  format: CliOutputFormat;
}

export function isCondenserCli(value: string): value is CondenserCli {
  return (CONDENSER_CLIS as readonly string[]).includes(value);
}

/**
 * Arguments for one run. The prompt is an argument, never stdin (stdin stays closed so nothing
 * can wait on it), and never passes through a shell.
 * - claude: `--settings {"disableAllHooks":true}` keeps every hook (ours and the user's) silent,
 *   `--no-session-persistence` writes no transcript; the model is ROLE_MODEL.
 * - codex: `exec --ephemeral` writes no rollout; `--skip-git-repo-check` because the run happens in
 *   an empty scratch folder, which `codex exec` otherwise refuses; read-only sandbox.
 * - gemini: `-p … --output-format json` → `{response, stats, error?}`. Gemini CLI has no flag to
 *   skip its own chat saving; the run's cwd is a scratch folder, so whatever it saves is filed
 *   under that folder's project hash, never among the user's projects. Our own hooks are kept
 *   silent by the environment (ROLE_ENABLED=0, KIOKU_HOOK_DISABLED=1) for every CLI alike.
 * - opencode `run … --format json` (NDJSON events), copilot `-p … -s`, agy `-p …`: plain answers.
 * ROLE_MODEL is passed to claude only: its default names a Claude model the others do not know.
 */
export function cliInvocation(cli: CondenserCli, prompt: string, model: string | null): CliInvocation {
  switch (cli) {
    case 'claude': {
      const modelArgs = model?.trim() ? ['--model', model.trim()] : [];
      return {
        args: ['-p', '--output-format', 'json', '--settings', '{"disableAllHooks":true}', '--no-session-persistence', ...modelArgs, prompt],
        format: 'claude-json',
      };
    }
    case 'codex':
      return { args: ['exec', '--ephemeral', '--skip-git-repo-check', '--sandbox', 'read-only', prompt], format: 'text' };
    case 'gemini':
      return { args: ['-p', prompt, '--output-format', 'json'], format: 'gemini-json' };
    case 'opencode':
      return { args: ['run', prompt, '--format', 'json'], format: 'opencode-json' };
    case 'copilot':
      return { args: ['-p', prompt, '-s'], format: 'text' };
    case 'agy':
      return { args: ['-p', prompt], format: 'text' };
  }
}

/**
 * The executable for `name` on PATH, like the shell would find it. On Windows only `.exe`/`.com`
 * count: a `.cmd` shim can only run through cmd.exe, and the prompt (the user's words) must never
 * be parsed by a shell.
 */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean);
  const names = process.platform === 'win32' ? [`${name}.exe`, `${name}.com`] : [name];
  for (const dir of dirs) {
    for (const candidate of names) {
      const file = path.join(dir, candidate);
      try {
        if (!fs.statSync(file).isFile()) continue;
        if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
        return file;
      } catch {
        /* not here */
      }
    }
  }
  return undefined;
}

export interface ChosenCli {
  cli: CondenserCli;
  command: string;
}

/**
 * ROLE_CLI → the CLI to run, or undefined for the local condenser.
 * `auto`: the CLI of the assistant that fired the event when it is on PATH (the user is signed in
 * to that one), else the first of CONDENSER_CLIS found, else local. A named CLI that is not on
 * PATH also means local — a missing tool must never cost a memory.
 */
export function chooseCondenserCli(setting: string, assistant: string | undefined, env: NodeJS.ProcessEnv): ChosenCli | undefined {
  const wanted = setting.trim().toLowerCase();
  if (wanted === 'local') return undefined;
  if (isCondenserCli(wanted)) {
    const command = findOnPath(wanted, env);
    return command ? { cli: wanted, command } : undefined;
  }
  const order = assistant && isCondenserCli(assistant) ? [assistant, ...CONDENSER_CLIS.filter((c) => c !== assistant)] : CONDENSER_CLIS;
  for (const cli of order) {
    const command = findOnPath(cli, env);
    if (command) return { cli, command };
  }
  return undefined;
}
