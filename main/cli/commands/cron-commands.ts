import type { Command } from 'commander';
import { installCron, removeCron, type CronDeps, type CronInstallResult } from '../../core/integrations/setup/cron-install.js';
import type { CliContext } from '../cli-context.js';

function installText(result: CronInstallResult): string {
  const lines: string[] = [];
  if (result.dryRun)
    lines.push(`would write ${result.entries.length} cron entr${result.entries.length === 1 ? 'y' : 'ies'} (dry run: nothing changed):`);
  else if (result.changed) lines.push(`installed ${result.entries.length} cron entr${result.entries.length === 1 ? 'y' : 'ies'}:`);
  else lines.push(`the crontab already has these ${result.entries.length} entries; nothing changed:`);
  for (const entry of result.entries) lines.push(`  ${entry.schedule.padEnd(20)} kioku ${entry.args.join(' ')}`);
  if (result.dryRun) lines.push('', ...result.entries.map((entry) => entry.line));
  lines.push(`launcher: ${result.launcher}`);
  // Hourly lines: the commands look at the window on the user's clock, so say which clock that is.
  const zones =
    result.zones.user === result.zones.cron
      ? result.zones.user
      : `${result.zones.user} (cron itself runs in ${result.zones.cron}; the hourly lines check the window in ${result.zones.user})`;
  lines.push(`time zone: ${zones}`);
  if (result.briefRoles.length) lines.push(`morning brief for: ${result.briefRoles.join(', ')}`);
  return lines.join('\n');
}

/**
 * `kioku install-cron [--dry-run] [--json]` (CLI.md, OPS-2): the hourly sleep check, the nap check
 * and the hourly morning-brief check as tagged crontab lines, calling the fixed launcher; the
 * commands decide on the user's clock (TZ in each line), so cron's own zone does not matter.
 * Registers on the `install-cron` command itself (kioku.ts's GROUPS) or adds one to the parent.
 */
export function registerInstallCronCommand(parent: Command, getContext: () => CliContext, deps: CronDeps = {}): void {
  const command = parent.name() === 'install-cron' ? parent : parent.command('install-cron');
  command
    .description(
      "schedule sleep, naps and the morning brief with cron, without the tray app; only Kioku's own lines (# kioku:…) are touched",
    )
    .option('--dry-run', 'print the lines that would be written and change nothing')
    .option('--json', 'print one JSON object')
    .action((options: { dryRun?: boolean; json?: boolean }) => {
      const ctx = getContext();
      const result = installCron(ctx.config, deps, { dryRun: Boolean(options.dryRun) });
      for (const warning of result.warnings) ctx.note(`kioku: warning: ${warning}`);
      ctx.logger.info(
        'cron',
        `install-cron: ${result.entries.map((e) => e.kind).join(', ') || 'no entries'}${result.changed ? '' : ' (unchanged)'}${result.dryRun ? ' (dry run)' : ''}`,
      );
      if (options.json) {
        const entries = result.entries.map(({ kind, schedule, args, line }) => ({ kind, schedule, args, line }));
        ctx.printJson({ ...result, entries });
      } else ctx.print(installText(result));
    });
}

/** `kioku remove-cron [--legacy] [--json]`: delete Kioku's tagged lines and the launcher. */
export function registerRemoveCronCommand(parent: Command, getContext: () => CliContext, deps: CronDeps = {}): void {
  const command = parent.name() === 'remove-cron' ? parent : parent.command('remove-cron');
  command
    .description("remove Kioku's cron entries (# kioku:…) and its launcher; every other line stays as it is")
    .option('--legacy', "also remove the original role scripts' lines (# jsc-role-sleep)")
    .option('--json', 'print one JSON object')
    .action((options: { legacy?: boolean; json?: boolean }) => {
      const ctx = getContext();
      const result = removeCron(ctx.config, deps, { legacy: Boolean(options.legacy) });
      ctx.logger.info('cron', `remove-cron: ${result.removed} entries, ${result.legacyRemoved} legacy lines`);
      if (options.json) ctx.printJson(result);
      else {
        const what = result.removed
          ? `removed ${result.removed} Kioku cron entr${result.removed === 1 ? 'y' : 'ies'}`
          : 'no Kioku cron entries to remove';
        const legacy = options.legacy ? `; removed ${result.legacyRemoved} # jsc-role-sleep line(s)` : '';
        ctx.print(`${what}${legacy}${result.launcherRemoved ? '; the launcher was deleted' : ''}.`);
      }
    });
}
