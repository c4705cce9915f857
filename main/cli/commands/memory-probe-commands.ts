import type { Command } from 'commander';
import { addProbe, auditProbes, confirmProbe, denyProbe, type ProbeChange } from '../../core/store/memory/probes.js';
import type { CliContext } from '../cli-context.js';
import { probeAuditText } from './memory-output.js';
import { resolveExistingMemoryRole, resolveMemoryRole } from './memory-role.js';

interface ProbeOptions {
  role?: string;
  id: string;
  json?: boolean;
}

const ROLE_HELP = 'role ID (default: ROLE_NAME, then the active role)';

function printChange(ctx: CliContext, change: ProbeChange, json: boolean | undefined): void {
  for (const warning of change.warnings) ctx.note(`kioku: warning: ${warning}`);
  if (json) ctx.printJson({ id: change.id, path: change.path, probe: change.probe });
  else ctx.print(`probe on ${change.id}: ${change.probe}`);
}

/** `kioku memory probe add|confirm|deny|audit` (PM-4). */
export function registerProbeCommands(probe: Command, getContext: () => CliContext): void {
  probe
    .command('add')
    .description('record that a fuzzy memory was raised as a question')
    .requiredOption('--id <MEMID>', 'memory id')
    .option('--question <text>', 'the question as asked (always with a question mark)')
    .option('--role <ID>', ROLE_HELP)
    .option('--json', 'print one JSON object')
    .action(async (options: ProbeOptions & { question?: string }) => {
      const ctx = getContext();
      const role = resolveExistingMemoryRole(ctx.config, options.role);
      printChange(ctx, await addProbe(ctx.config, role, options.id, options.question), options.json);
    });

  probe
    .command('confirm')
    .description('the user confirmed the memory')
    .requiredOption('--id <MEMID>', 'memory id')
    .option('--role <ID>', ROLE_HELP)
    .option('--json', 'print one JSON object')
    .action((options: ProbeOptions) => {
      const ctx = getContext();
      const role = resolveExistingMemoryRole(ctx.config, options.role);
      printChange(ctx, confirmProbe(ctx.config, role, options.id), options.json);
    });

  probe
    .command('deny')
    .description('the user denied the memory: it is flagged for correction at the next consolidation')
    .requiredOption('--id <MEMID>', 'memory id')
    .option('--note <text>', 'what is true instead')
    .option('--role <ID>', ROLE_HELP)
    .option('--json', 'print one JSON object')
    .action(async (options: ProbeOptions & { note?: string }) => {
      const ctx = getContext();
      const role = resolveExistingMemoryRole(ctx.config, options.role);
      printChange(ctx, await denyProbe(ctx.config, role, options.id, options.note), options.json);
    });

  probe
    .command('audit')
    .description('count probes by state and list denied memories awaiting correction')
    .option('--role <ID>', ROLE_HELP)
    .option('--json', 'print one JSON object')
    .action((options: { role?: string; json?: boolean }) => {
      const ctx = getContext();
      const audit = auditProbes(ctx.config.paths.memoryHome, resolveMemoryRole(ctx.config, options.role));
      if (options.json) ctx.printJson(audit);
      else ctx.print(probeAuditText(audit));
    });
}
