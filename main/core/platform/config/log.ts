import { formatLocalDateTime, type Clock } from './clock.js';
import { appendCapped } from './log-rotation.js';

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

/**
 * Longest message a log line keeps (issue 14): a line that quotes a request, a reply or an error
 * keeps its start — enough to say what happened — and never a whole multi-megabyte payload.
 */
export const MAX_LOG_MESSAGE_CHARS = 2_000;

function clipMessage(message: string): string {
  if (message.length <= MAX_LOG_MESSAGE_CHARS) return message;
  return `${message.slice(0, MAX_LOG_MESSAGE_CHARS)}… (${message.length - MAX_LOG_MESSAGE_CHARS} more characters left out)`;
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
      appendCapped(file, line + '\n');
    } catch {
      /* best effort */
    }
  };
  const log = (stage: string, level: LogLevel, message: string) => {
    const line = formatLogLine(options.clock.now(), stage, level, clipMessage(message));
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
