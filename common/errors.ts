/**
 * Errors a user can act on. Every boundary error carries a code (stable, for scripts and the
 * IPC contract), a message that names the value or file that was wrong, and a hint that says
 * what to do. The CLI prints `message` and `hint`, never a stack trace.
 */
import type { UiErrorReason, UiErrorValues } from './ui-error-reasons.js';

export type KiokuErrorCode =
  | 'BAD_USAGE' // wrong arguments: exit 2
  | 'CONFIRM_NEEDED' // ROLE-5: a change waits for --confirm TOKEN: exit 3
  | 'INVALID_ID'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'AMBIGUOUS'
  | 'REFUSED'
  | 'INVALID_FILE'
  | 'INVALID_ARCHIVE'
  | 'LOCKED'
  | 'LIMIT_EXCEEDED'
  | 'IO';

export interface KiokuErrorOptions {
  hint?: string;
  /** The file the error is about, when there is one. */
  path?: string;
  cause?: unknown;
  /** For the UI: which of its own texts to show (set by main/core/hosts/ui-api handlers). */
  reason?: UiErrorReason;
  reasonValues?: UiErrorValues;
  /** For the UI: the request field at fault, so the form shows the error next to it. */
  field?: string;
}

export class KiokuError extends Error {
  readonly code: KiokuErrorCode;
  readonly hint: string | undefined;
  readonly path: string | undefined;
  readonly reason: UiErrorReason | undefined;
  readonly reasonValues: UiErrorValues | undefined;
  readonly field: string | undefined;

  constructor(code: KiokuErrorCode, message: string, options: KiokuErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KiokuError';
    this.code = code;
    this.hint = options.hint;
    this.path = options.path;
    this.reason = options.reason;
    this.reasonValues = options.reasonValues;
    this.field = options.field;
  }
}

export function isKiokuError(error: unknown): error is KiokuError {
  return error instanceof KiokuError;
}

/** The CLI exit code for an error (CLI.md: 1 failure, 2 bad usage, 3 confirmation needed). */
export function exitCodeFor(error: unknown): 1 | 2 | 3 {
  if (!isKiokuError(error)) return 1;
  if (error.code === 'BAD_USAGE' || error.code === 'INVALID_ID') return 2;
  if (error.code === 'CONFIRM_NEEDED') return 3;
  return 1;
}

/** A one-line description of any thrown value, for logs and stderr. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
