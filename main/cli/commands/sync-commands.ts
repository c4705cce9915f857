import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { KiokuError } from '../../../common/errors.js';
import { syncInit, type OutgoingTree } from '../../core/engine/sync/sync-init.js';
import { readSyncLog } from '../../core/engine/sync/sync-log.js';
import { syncNow } from '../../core/engine/sync/sync-now.js';
import { collectSyncStatus } from '../../core/engine/sync/sync-status.js';
import type { CliContext } from '../cli-context.js';
import { logText, outgoingText, runText, syncStatusLines } from './sync-output.js';

/**
 * `kioku sync init --remote URL [--yes]`, `sync now`, `sync status`, `sync log` (X-SYNC): the homes
 * as git working trees sharing one remote. `init` lists what would leave the machine and asks
 * before the first push; without a terminal it needs --yes.
 */
async function askYes(ctx: CliContext, outgoing: OutgoingTree[], remote: string, yes: boolean): Promise<boolean> {
  ctx.note(outgoingText(outgoing, remote));
  if (yes) return true;
  if (!ctx.interactive) {
    throw new KiokuError('CONFIRM_NEEDED', 'nothing was sent: the first push needs your agreement', {
      hint: 'read the list above, then run the same command with --yes (or in a terminal to be asked)',
    });
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await prompt.question('送出這些檔案？ Send these files? [y/N] ')).trim().toLowerCase();
    return answer === 'y' || answer === 'yes' || answer === '是';
  } finally {
    prompt.close();
  }
}

export function registerSyncCommands(parent: Command, getContext: () => CliContext): void {
  parent
    .command('init')
    .description('make the role and memory homes git working trees sharing REMOTE, list what would be sent, and sync once you agree')
    .requiredOption('--remote <url>', 'a git URL you control (ssh or https without credentials, a bare repository path, …)')
    .option('--yes', 'agree to the first push without asking (scripts, tests)')
    .option('--json', 'print one JSON object')
    .action(async (options: { remote: string; yes?: boolean; json?: boolean }) => {
      const ctx = getContext();
      const result = await syncInit(ctx.config, {
        remote: options.remote,
        logger: ctx.logger,
        approve: (outgoing, remote) => askYes(ctx, outgoing, remote, Boolean(options.yes)),
      });
      if (options.json) ctx.printJson(result);
      else if (!result.approved) ctx.print('沒有送出任何檔案 nothing was sent; run `kioku sync init --remote …` again when you are ready');
      else ctx.print(`${result.machine}: ${result.run ? runText(result.run) : ''}`);
    });

  parent
    .command('now')
    .description('commit local changes, fetch, merge (nothing is lost), push, then refresh the index')
    .option('--json', 'print one JSON object')
    .action(async (options: { json?: boolean }) => {
      const ctx = getContext();
      const run = await syncNow(ctx.config, { logger: ctx.logger });
      if (options.json) ctx.printJson(run);
      else ctx.print(runText(run));
      if (run.outcome !== 'ok') process.exitCode = 1;
    });

  parent
    .command('status')
    .description('last sync, what waits to be sent or merged, conflict copies, sleep leases (no network)')
    .option('--json', 'print one JSON object')
    .action((options: { json?: boolean }) => {
      const ctx = getContext();
      const status = collectSyncStatus(ctx.config);
      if (options.json) ctx.printJson(status);
      else ctx.print(syncStatusLines(status).join('\n'));
    });

  parent
    .command('log')
    .description('the latest sync commits: which machine, when, what')
    .option('-n, --count <n>', 'how many (default 20)', '20')
    .option('--json', 'print one JSON array')
    .action((options: { count: string; json?: boolean }) => {
      const ctx = getContext();
      const count = Number(options.count);
      if (!Number.isInteger(count) || count < 1)
        throw new KiokuError('BAD_USAGE', `--count "${options.count}" is not a whole number above 0`, { hint: 'e.g. --count 20' });
      const entries = readSyncLog(ctx.config, count);
      if (options.json) ctx.printJson(entries);
      else ctx.print(logText(entries));
    });
}
