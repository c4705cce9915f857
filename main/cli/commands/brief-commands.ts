import type { Command } from 'commander';
import { KiokuError } from '../../../common/errors.js';
import { briefDue, recordBrief } from '../../core/engine/brief/brief-due.js';
import { rolesWithChecks } from '../../core/engine/brief/check-scripts.js';
import { runBrief, type BriefResult } from '../../core/engine/brief/run-brief.js';
import type { CliContext } from '../cli-context.js';
import { resolveExistingMemoryRole } from './existing-memory-role.js';

interface BriefCliOptions {
  role?: string;
  all?: boolean;
  json?: boolean;
  scheduled?: boolean;
}

/** Human output: what ran, what was skipped and why, and what the role will be told. */
export function briefText(result: BriefResult): string {
  if (!result.enabled) return `${result.role}: the morning brief is off (ROLE_BRIEF_ENABLED=0).`;
  if (!result.hasChecks) return `${result.role}: no ${result.checksDir}/ folder, nothing to check.`;
  const reported = result.scripts.filter((s) => s.status === 'reported').length;
  const lines = [
    `${result.role}: ${result.ran.length} check script(s) ran — ${reported} reported, ${result.timedOut.length} timed out; ${result.skipped.length} skipped`,
  ];
  for (const script of result.scripts) {
    lines.push(`  ${script.status.padEnd(11)} ${script.name}${script.note ? ` — ${script.note}` : ''}`);
    if (script.output) lines.push(...script.output.split('\n').map((line) => `      ${line}`));
    if (script.cut > 0) lines.push(`      （以下截斷 ${script.cut} 字）`);
  }
  if (result.memory) lines.push(`  → wrote a daily memory: ${result.memory.path}`);
  else if (result.ran.length) lines.push('  → every script was silent: nothing to report, no memory written.');
  return lines.join('\n');
}

/**
 * `kioku brief [--role ID | --all] [--json]` (CLI.md, BRIEF-1): run the morning brief now — what
 * the schedule does at the end of the sleep window. `--all` serves every role with a checks
 * folder (the schedule's default: SLEEP-3, the schedule covers every role). `--scheduled` (the hourly cron line)
 * runs only when brief-due.ts says the window has just ended on the user's clock. Exit 0 whatever the scripts did:
 * a check that fails is something to report, not a failure of the command. `--json` prints
 * `{ "roles": [BriefResult] }`. Registers on the `brief` command itself (kioku.ts's GROUPS), or
 * adds one to the given parent.
 */
export function registerBriefCommand(parent: Command, getContext: () => CliContext): void {
  const command = parent.name() === 'brief' ? parent : parent.command('brief');
  command
    .description('run the morning brief now: <role home>/<ID>.checks/*.sh, what they print kept as one daily memory')
    .option('--role <ID>', 'role ID (default: ROLE_NAME, then the active role)')
    .option('--all', 'every role that has a checks folder (what the schedule runs)')
    .option('--json', 'print { "roles": [...] } with what each script did')
    .option('--scheduled', "only in the hour after the sleep window ends on the user's clock, once a day (what the hourly cron line runs)")
    .action(async (options: BriefCliOptions) => {
      const ctx = getContext();
      if (options.all && options.role)
        throw new KiokuError('BAD_USAGE', '--all and --role cannot be used together', { hint: 'pass one of them' });
      const due = options.scheduled ? briefDue(ctx.config) : undefined;
      if (due && !due.due) {
        if (options.json) ctx.printJson({ roles: [], due: false, reason: due.reason });
        else ctx.print(`Not now: ${due.reason}.`);
        return;
      }
      // Noted before the scripts run: a brief that outlives its hour is not started again.
      if (due?.due) recordBrief(ctx.config, due.day);
      const roles = options.all ? rolesWithChecks(ctx.config.paths.roleHome) : [resolveExistingMemoryRole(ctx.config, options.role)];
      const results: BriefResult[] = [];
      for (const role of roles) results.push(await runBrief(ctx.config, role, { logger: ctx.logger }));
      for (const result of results) {
        const shown = new Set(result.scripts.flatMap((s) => (s.note ? [s.note] : [])));
        // The text output already lists each script's trouble; --json users still get it on stderr.
        for (const warning of result.warnings) if (options.json || !shown.has(warning)) ctx.note(`kioku: warning: ${warning}`);
      }
      if (options.json) ctx.printJson({ roles: results });
      else if (results.length === 0) ctx.print(`No role in ${ctx.config.paths.roleHome} has a <ID>.checks/ folder: nothing to check.`);
      else ctx.print(results.map(briefText).join('\n'));
    });
}
