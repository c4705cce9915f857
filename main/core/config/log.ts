import fs from 'node:fs';
import path from 'node:path';
import { formatLocalDateTime, type Clock } from './clock.js';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** OPS-3: `[yyyy/MM/dd HH:mm:ss][stage][level]: message`, one line each, local time. */
export function formatLogLine(date: Date, stage: string, level: LogLevel, message: string): string {
  const oneLine = message.replace(/\r?\n/g, ' ⏎ ');
  return `[${formatLocalDateTime(date)}][${stage}][${level}]: ${oneLine}`;
}

export interface Logger {
  log(stage: string, level: LogLevel, message: string): void;
  info(stage: string, message: string): void;
  warn(stage: string, message: string): void;
  error(stage: string, message: string): void;
}

export interface LoggerOptions {
  clock: Clock;
  /** Append lines here (`<state>/logs/kioku.log`); undefined: no file. */
  file?: string;
  /** Also write WARN/ERROR to stderr (CLI yes, hooks only when something is worth telling). */
  stderr?: boolean;
  /** ROLE_ERRLOG: errors are also appended here. */
  errlog?: string | null;
}

/**
 * A logger that never throws: a log that cannot be written must not turn a working command
 * (or a hook) into a failing one.
 */
export function createLogger(options: LoggerOptions): Logger {
  const append = (file: string, line: string) => {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, line + '\n', 'utf8');
    } catch {
      /* best effort */
    }
  };
  const log = (stage: string, level: LogLevel, message: string) => {
    const line = formatLogLine(options.clock.now(), stage, level, message);
    if (options.file) append(options.file, line);
    if (level === 'ERROR' && options.errlog) append(options.errlog, line);
    if (options.stderr && (level === 'WARN' || level === 'ERROR')) {
      try {
        process.stderr.write(line + '\n');
      } catch {
        /* best effort */
      }
    }
  };
  return {
    log,
    info: (stage, message) => log(stage, 'INFO', message),
    warn: (stage, message) => log(stage, 'WARN', message),
    error: (stage, message) => log(stage, 'ERROR', message),
  };
}

export const silentLogger: Logger = { log() {}, info() {}, warn() {}, error() {} };
