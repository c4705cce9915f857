import { createInterface } from 'node:readline/promises';
import { KiokuError } from '../../../common/errors.js';
import type { CliContext } from '../cli-context.js';

/**
 * ROLE-5's confirmation for commands that change a role's files: show the change and a token,
 * write nothing, exit 3; `--confirm <token>` applies exactly what was shown (no --yes on purpose).
 * Design notes: docs/design-notes.md, "main/cli/commands/confirm-change.ts".
 */
export interface ConfirmRequest {
  json: boolean;
  /** The --json reply (it carries `confirmNeeded: true` and the token). */
  jsonReply: Record<string, unknown>;
  /** The proposal as text: a heading line, the old/new table, anything else worth saying. */
  proposal: string[];
  token: string;
  /** Why the change was not applied (no token given, or a token that does not match). */
  reason: string;
}

export function askForConfirmation(ctx: CliContext, request: ConfirmRequest): never {
  if (request.json) ctx.printJson(request.jsonReply);
  else
    ctx.print(
      [
        ...request.proposal,
        '',
        'Nothing was written. To apply exactly this change, run the same command again with:',
        `  --confirm ${request.token}`,
      ].join('\n'),
    );
  throw new KiokuError('CONFIRM_NEEDED', `${request.reason}; nothing was written`, {
    hint: `check the table, then add --confirm ${request.token}`,
  });
}

/** In a terminal: ask, and take only "y" or "yes" for an answer. */
export async function promptYes(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}
