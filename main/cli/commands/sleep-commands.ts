import type { Command } from 'commander';
import { KiokuError } from '../../../common/errors.js';
import { explainInvalidRoleId } from '../../../common/role-id.js';
import type { KiokuConfig } from '../../core/platform/config/config.js';
import { ingestSpoolBeforeSleep, type SpoolIngestSummary } from '../../core/hosts/daemon/ingest-before-sleep.js';
import { prepareNextLoads } from '../../core/hosts/hook-handlers/prepare-next-load.js';
import { findAssistantProcesses, listProcesses } from '../../core/engine/schedule/assistant-processes.js';
import { napCandidates } from '../../core/engine/sleep/nap-candidates.js';
import { awakeNow, runSleep, sleepRoles } from '../../core/engine/sleep/run-sleep.js';
import type { RoleSleepResult, SleepProgress, SleepResult } from '../../core/engine/sleep/sleep-result.js';
import type { Planner } from '../../core/engine/sleep/sleep-plan.js';
import type { CliContext } from '../cli-context.js';
import { resolveExistingMemoryRole } from './existing-memory-role.js';

/**
 * `kioku sleep [--force] [--role ID] [--json]` and `kioku nap [--json]` (CLI.md, SLEEP-1…3):
 * consolidate every due role in this process; exit 1 when any role failed or was busy.
 * Design notes: docs/design-notes.md, "main/cli/commands/sleep-commands.ts".
 */
export interface SleepCommandDeps {
  /** Tests: the planner instead of ROLE_CLI's choice. */
  planner?: Planner;
  /** Tests: running assistants instead of the machine's process list. */
  assistantProcesses?: () => string[];
}

interface SleepOptions {
  force?: boolean;
  role?: string;
  json?: boolean;
}

function runningAssistants(deps: SleepCommandDeps): string[] {
  if (deps.assistantProcesses) return deps.assistantProcesses();
  return findAssistantProcesses(listProcesses()).map((p) => `${p.assistant} (pid ${p.pid})`);
}

function roleLine(result: RoleSleepResult): string {
  if (!result.ok)
    return `${result.id}: ${result.busy ? 'busy' : 'failed'} — ${result.error ?? 'no reason given'}${result.processed ? ` (${result.processed} processed before that)` : ''}`;
  if (result.processed === 0 && result.forgotten === 0) return `${result.id}: nothing to consolidate.`;
  const replayed = result.replayed ? `, ${result.replayed} interrupted plan(s) finished` : '';
  return `${result.id}: ${result.processed} inbox item(s) consolidated — ${result.created} created, ${result.merged} merged, ${result.discarded} discarded; ${result.forgotten} forgotten; ${result.left} left (planner ${result.planner ?? '?'}, ${result.batches} batch(es)${replayed}).`;
}

function progressNote(event: SleepProgress): string | undefined {
  switch (event.type) {
    case 'role-start':
      return event.inbox ? `${event.role}: consolidating ${event.inbox} inbox item(s) with the ${event.planner} planner…` : undefined;
    case 'replayed':
      return `${event.role}: finished the interrupted plan ${event.planId}`;
    case 'batch-failed':
      return `${event.role}: a batch of ${event.size} failed (attempt ${event.attempt}): ${event.error}`;
    case 'batch-applied':
      return `${event.role}: ${event.processed} applied, ${event.left} left`;
    default:
      return undefined;
  }
}

function report(ctx: CliContext, result: SleepResult, json: boolean, extra: Record<string, unknown> = {}): void {
  for (const role of result.roles) for (const warning of role.warnings) ctx.note(`kioku: warning: ${role.id}: ${warning}`);
  if (json) ctx.printJson({ ...result, ...extra });
  else if (result.roles.length === 0) ctx.print('No roles to consolidate.');
  else for (const role of result.roles) ctx.print(roleLine(role));
  for (const role of result.roles) if (!role.ok) ctx.logger.warn('sleep', `${role.id}: ${role.error ?? 'failed'}`);
  if (result.roles.some((role) => !role.ok)) process.exitCode = 1;
}

function explicitRole(config: KiokuConfig, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const problem = explainInvalidRoleId(value.trim());
  if (problem) throw new KiokuError('INVALID_ID', `--role: ${problem}`, { hint: 'list the roles with `kioku role list`' });
  return resolveExistingMemoryRole(config, value);
}

/**
 * Issue 13: turns the hook spooled while no daemon ran are captured first, so this run
 * consolidates them (ingest-before-sleep.ts).
 */
async function ingestSpool(ctx: CliContext, json: boolean): Promise<SpoolIngestSummary> {
  const spool = await ingestSpoolBeforeSleep(ctx.config, ctx.logger);
  if (!json && spool.ingested) ctx.note(`Captured ${spool.ingested} spooled event(s) first.`);
  if (spool.failed)
    ctx.note(
      `kioku: warning: ${spool.failed} spooled event(s) could not be captured; they are in ${ctx.config.paths.spoolDir}/failed (see the log).`,
    );
  if (spool.busy)
    ctx.note(
      `kioku: warning: process ${spool.busy.pid} (${spool.busy.purpose}) is ingesting the spool; its events reach the inbox there, for the next run.`,
    );
  return spool;
}

function window(config: KiokuConfig): string {
  return `${config.settings.ROLE_SLEEP_START}–${config.settings.ROLE_SLEEP_END}`;
}

export function registerSleepCommands(parent: Command, getContext: () => CliContext, deps: SleepCommandDeps = {}): void {
  const command = parent.name() === 'sleep' ? parent : parent.command('sleep');
  command
    .description('consolidate the inbox into long-term memories now; every role unless --role or ROLE_NAME')
    .option('--force', 'ignore the sleep window and the running-assistant check')
    .option('--role <ID>', 'only this role')
    .option('--json', 'print the result as JSON')
    .action(async (options: SleepOptions) => {
      const ctx = getContext();
      const { config } = ctx;
      const role = explicitRole(config, options.role);
      if (!options.force) {
        if (awakeNow(config)) {
          if (options.json) ctx.printJson({ roles: [], awake: true });
          else
            ctx.print(
              `Awake: it is outside the sleep window (${window(config)}), so nothing was consolidated. Run \`kioku sleep --force\` to consolidate now.`,
            );
          return;
        }
        const running = runningAssistants(deps);
        if (running.length) {
          // SLEEP-1: an AI assistant still running means the role is in use, so it does not sleep;
          // the schedule tries again at the next full hour.
          if (options.json) ctx.printJson({ roles: [], awake: true, assistants: running });
          else
            ctx.print(
              `Not sleeping: an AI assistant is running (${running.slice(0, 3).join(', ')}). The schedule tries again next hour; \`kioku sleep --force\` consolidates now.`,
            );
          return;
        }
      }
      const spool = await ingestSpool(ctx, Boolean(options.json));
      const result = await runSleep(config, {
        ...(role ? { role } : {}),
        force: true,
        reason: 'manual',
        ...(deps.planner ? { planner: deps.planner } : {}),
        ...(!options.json && ctx.interactive
          ? { onProgress: (event: SleepProgress) => void (progressNote(event) && ctx.note(progressNote(event)!)) }
          : {}),
      });
      report(ctx, result, Boolean(options.json), { spool });
      prepareSlept(ctx, result);
    });
}

/** The roles that slept get their next load ready on disk (after the report: nobody waits for it). */
function prepareSlept(ctx: CliContext, result: SleepResult): void {
  prepareNextLoads(
    ctx.config,
    result.roles.filter((role) => role.ok).map((role) => role.id),
    ctx.logger,
  );
}

export function registerNapCommands(parent: Command, getContext: () => CliContext, deps: SleepCommandDeps = {}): void {
  const command = parent.name() === 'nap' ? parent : parent.command('nap');
  command
    .description('consolidate the roles that are idle with a full enough inbox, at any time of day')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const ctx = getContext();
      const { config } = ctx;
      if (!config.settings.ROLE_NAP_ENABLED) {
        if (options.json) ctx.printJson({ roles: [], napEnabled: false });
        else ctx.print('Naps are off (ROLE_NAP_ENABLED=0); nothing was consolidated.');
        return;
      }
      const spool = await ingestSpool(ctx, Boolean(options.json));
      const named = config.settings.ROLE_NAME?.trim();
      const decision = napCandidates(config, named ? [named] : sleepRoles(config));
      const skipped = decision.skipped.map((s) => ({ id: s.role, reason: s.reason }));
      const result: SleepResult = decision.ready.length
        ? await runSleep(config, {
            roles: decision.ready.map((c) => c.role),
            reason: 'nap',
            ...(deps.planner ? { planner: deps.planner } : {}),
          })
        : { roles: [] };
      if (!options.json) for (const s of skipped) ctx.print(`${s.id}: no nap — ${s.reason}.`);
      if (!options.json && result.roles.length === 0) {
        if (skipped.length === 0) ctx.print('No roles to nap.');
        return;
      }
      report(ctx, result, Boolean(options.json), { skipped, spool });
      prepareSlept(ctx, result);
    });
}
