import path from 'node:path';
import { loadConfig, type KiokuConfig } from '../core/platform/config/config.js';
import { createLogger, type Logger } from '../core/platform/config/log.js';
import { writeToFd } from '../core/platform/fs/fd-output.js';

/**
 * What every command gets: the resolved config, a logger (file + stderr) and output helpers.
 * stdout carries only the command's answer (`--json`: one JSON document); diagnostics go to
 * stderr (CLI.md conventions).
 */
export interface CliContext {
  config: KiokuConfig;
  logger: Logger;
  /** Human output, one call per line or block. */
  print(text: string): void;
  /** `--json` output: exactly one document on stdout. */
  printJson(value: unknown): void;
  /** A note for the user on stderr (not part of the answer). */
  note(text: string): void;
  /** True when stdin is a terminal (a TTY may answer a prompt instead of --confirm). */
  interactive: boolean;
}

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * The answer straight to fd 1 (fd-output.ts), for the fast paths of `memory recall`: making
 * process.stdout for a pipe loads net and the streams, about 2.5 ms of every recall an assistant
 * runs. The full CLI keeps the streams, which commander and the progress bars write to as well.
 */
export const fdIo: CliIo = {
  stdout: (text) => writeToFd(1, text),
  stderr: (text) => process.stderr.write(text),
};

export function createCliContext(env: NodeJS.ProcessEnv = process.env, io: CliIo = defaultIo): CliContext {
  const config = loadConfig(env);
  for (const problem of config.problems) io.stderr(`kioku: warning: ${problem.message}\n`);
  return contextWithConfig(config, io);
}

/** The context for settings already loaded (and their problems already told). */
export function contextWithConfig(config: KiokuConfig, io: CliIo = defaultIo): CliContext {
  const logger = createLogger({
    clock: config.clock,
    file: path.join(config.paths.logsDir, 'kioku.log'),
    stderr: false,
    errlog: config.settings.ROLE_ERRLOG,
  });
  let interactive: boolean | undefined;
  return {
    config,
    logger,
    print: (text) => io.stdout(text.endsWith('\n') ? text : `${text}\n`),
    printJson: (value) => io.stdout(`${JSON.stringify(value, null, 2)}\n`),
    note: (text) => io.stderr(text.endsWith('\n') ? text : `${text}\n`),
    // Asked only by commands that prompt: making process.stdin for a pipe loads net and the
    // streams (about 2.5 ms and 37 modules), which `memory recall` would pay on every call.
    get interactive() {
      return (interactive ??= Boolean(process.stdin.isTTY));
    },
    set interactive(value: boolean) {
      interactive = value;
    },
  };
}
