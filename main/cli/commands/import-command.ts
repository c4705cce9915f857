import type { Command } from 'commander';
import { KiokuError } from '../../../common/errors.js';
import { factsUsageText } from '../../core/store/notes/notes-limits.js';
import { importDshHome } from '../../core/integrations/import/dsh-import.js';
import type { ImportReport } from '../../core/integrations/import/import-types.js';
import { importJscPersonas } from '../../core/integrations/import/jsc-persona-import.js';
import type { CliContext } from '../cli-context.js';

/**
 * `kioku import --from jsc-persona|dsh <dir> [--dry-run] [--json]` (CLI.md, X-IMPORT): lists
 * every change; `--dry-run` writes nothing; exit 1 when something needs the user.
 * Design notes: docs/design-notes.md, "main/cli/commands/import-command.ts".
 */
const SOURCES = ['jsc-persona', 'dsh'] as const;

interface ImportOptions {
  from: string;
  dryRun?: boolean;
  json?: boolean;
}

const mark = (action: string) => (action === 'exists' || action === 'unchanged' ? '=' : action === 'create' ? '+' : '!');

function roleLines(report: ImportReport): string[] {
  return report.roles.map((role) => {
    const what =
      role.action === 'create'
        ? `${report.dryRun ? 'would be created' : 'created'}${role.madeActive ? ', active (there was no active role)' : ''}`
        : role.action === 'exists'
          ? 'imported before; left as it is'
          : 'memories only: the source has no persona definition to make a role from';
    const lines = [
      `  ${mark(role.action === 'memory-only' ? 'create' : role.action)} ${role.id}  ${role.name || '(no name)'}  ← ${role.sourceKey}: ${what}${role.cleaned ? ' (text cleaned: secrets masked, Simplified converted)' : ''}`,
    ];
    for (const note of role.notes) lines.push(`      note: ${note}`);
    if (role.action === 'memory-only')
      lines.push(`      write its definition with \`kioku role new --id ${role.id} --name … --nature … --vibe … --emoji …\``);
    return lines.join('\n');
  });
}

function reportText(report: ImportReport): string {
  const lines = [`${report.dryRun ? 'Dry run: nothing was written. Importing' : 'Imported'} from ${report.from} ${report.source}`];
  if (report.roles.length) lines.push('Roles:', ...roleLines(report));
  if (report.memories.length) {
    const fresh = report.memories.filter((memory) => memory.action === 'create');
    lines.push(
      `Memories: ${fresh.length} ${report.dryRun ? 'to write' : 'written'}, ${report.memories.length - fresh.length} already there`,
    );
    for (const memory of fresh) {
      lines.push(
        `  + ${memory.role} ${memory.category}/${memory.memory_type}  ${memory.summary}${memory.cleaned ? '  (text cleaned: secrets masked, Simplified converted)' : ''}`,
      );
      lines.push(`      ${memory.source} → ${memory.path}`);
    }
  }
  if (report.facts) {
    const usage = report.facts.usage ? ` (${factsUsageText(report.facts.usage)})` : '';
    const said = {
      create: report.dryRun ? 'would be created' : 'created',
      unchanged: 'already the same',
      conflict: 'CONFLICT: left as it is',
      refused: 'REFUSED: over the FACT.md size limit',
      absent: 'nothing to import',
    }[report.facts.action];
    lines.push(`Global facts: ${report.facts.target} ${said}${usage}`);
  }
  if (report.journal) {
    const { added, existing, corrupt } = report.journal;
    lines.push(
      `Journal: ${added} ${report.dryRun ? 'to append' : 'appended'}, ${existing} already there${corrupt ? `, ${corrupt} broken line(s) left out` : ''} (${report.journal.target})`,
    );
  }
  if (report.skipped.length) lines.push('Left out:', ...report.skipped.map((skip) => `  - ${skip.source}: ${skip.reason}`));
  lines.push(
    report.changes === 0
      ? 'Nothing to change: everything was imported before.'
      : `${report.changes} change(s)${report.dryRun ? ' would be made' : ''}.`,
  );
  if (!report.dryRun && report.roles.some((role) => role.action === 'create'))
    lines.push('Start a new assistant session to load the imported roles.');
  return lines.join('\n');
}

export function registerImportCommand(parent: Command, getContext: () => CliContext): void {
  const command = parent.name() === 'import' ? parent : parent.command('import');
  command
    .description('import personas and memories from persona-memory folders or a dsh-persona-memory home (DSH_HOME); idempotent')
    .requiredOption('--from <source>', `what the folder is: ${SOURCES.join(' | ')}`)
    .argument('<dir>', 'jsc-persona: a persona folder or the folder holding them; dsh: the DSH home (with personas/ and memory/)')
    .option('--dry-run', 'list what would change and write nothing')
    .option('--json', 'print the report as one JSON object')
    .action(async (dir: string, options: ImportOptions) => {
      const ctx = getContext();
      if (!(SOURCES as readonly string[]).includes(options.from)) {
        throw new KiokuError('BAD_USAGE', `--from "${options.from}" is not known`, { hint: `use --from ${SOURCES.join(' or --from ')}` });
      }
      const run = options.from === 'dsh' ? importDshHome : importJscPersonas;
      const report = await run(ctx.config, dir, { dryRun: Boolean(options.dryRun) });
      for (const warning of report.warnings) ctx.note(`kioku: warning: ${warning}`);
      if (options.json) ctx.printJson(report);
      else ctx.print(reportText(report));
      for (const conflict of report.conflicts) ctx.note(`kioku: ${conflict}`);
      if (report.conflicts.length) process.exitCode = 1;
    });
}
