import type { Command } from 'commander';
import { KiokuError } from '../../../common/errors.js';
import { ASSISTANTS, type AssistantName } from '../../../common/hook-events.js';
import {
  detectAssistants,
  hooksStatus,
  installHooks,
  uninstallHooks,
  type HooksChange,
  type HookStatus,
} from '../../core/integrations/setup/hooks-install.js';
import type { CliContext } from '../cli-context.js';

interface HooksCommandOptions {
  assistant?: string;
  json?: boolean;
}

function parseAssistant(value: string): AssistantName {
  const name = value.trim().toLowerCase();
  if ((ASSISTANTS as readonly string[]).includes(name)) return name as AssistantName;
  throw new KiokuError('BAD_USAGE', `unknown assistant "${value}"`, { hint: `use --assistant ${ASSISTANTS.join('|')}` });
}

/**
 * Which assistants a command acts on: the one named, else for install those whose
 * configuration folder exists in HOME (installing into an assistant the user does not have
 * would only create stray files), and for uninstall/status all of them.
 */
function assistantsFor(ctx: CliContext, options: HooksCommandOptions, onlyDetected: boolean): AssistantName[] {
  if (options.assistant !== undefined) return [parseAssistant(options.assistant)];
  if (!onlyDetected) return [...ASSISTANTS];
  const found = detectAssistants(ctx.config.env);
  if (found.length > 0) return found;
  throw new KiokuError('NOT_FOUND', 'found no ~/.claude, ~/.codex or ~/.gemini folder in this HOME', {
    hint: `name the assistant: kioku hooks install --assistant ${ASSISTANTS.join('|')}`,
  });
}

const VERB: Record<HooksChange['action'], string> = {
  installed: 'installed',
  updated: 'updated',
  unchanged: 'unchanged',
  removed: 'removed',
};

function changeText(change: HooksChange, uninstall: boolean): string {
  const what =
    change.action === 'unchanged'
      ? uninstall
        ? 'no Kioku hooks to remove'
        : `already installed (${change.hooks} hooks)`
      : `${VERB[change.action]} ${change.hooks} hook${change.hooks === 1 ? '' : 's'}`;
  const lines = [`${change.assistant}: ${what} — ${change.settingsFile}`];
  if (change.backup) lines.push(`  previous file kept as ${change.backup}`);
  for (const note of change.notes) lines.push(`  note: ${note}`);
  return lines.join('\n');
}

function statusText(status: HookStatus): string {
  const lines: string[] = [];
  if (status.problem) {
    lines.push(`${status.assistant}: cannot read settings — ${status.problem}`);
    return lines.join('\n');
  }
  const total = status.events.length + status.missingEvents.length;
  const state = !status.installed ? 'not installed' : status.complete ? 'installed' : 'partly installed';
  lines.push(
    `${status.assistant}: ${state} (${status.events.length}/${total} events) — ${status.settingsFile}${status.fileExists ? '' : ' (no file)'}`,
  );
  if (status.events.length > 0) lines.push(`  events: ${status.events.join(', ')}`);
  if (status.installed && status.missingEvents.length > 0) lines.push(`  missing: ${status.missingEvents.join(', ')}`);
  const clients = new Map(status.commands.map((c) => [c.clientPath ?? '(no client path)', c.clientExists]));
  for (const [client, exists] of clients)
    lines.push(`  client: ${client} (${exists === undefined ? 'cannot check' : exists ? 'exists' : 'MISSING'})`);
  for (const note of status.notes) lines.push(`  note: ${note}`);
  return lines.join('\n');
}

/**
 * `kioku hooks install|uninstall|status [--assistant claude|codex|gemini]` (CLI.md, HOOK-3).
 * Edits only Kioku's own entries in the user's assistant settings; see core/hooks-config.
 */
export function registerHooksCommands(parent: Command, getContext: () => CliContext): void {
  const assistantOption = '--assistant <name>';
  const assistantHelp = `${ASSISTANTS.join('|')}`;

  parent
    .command('install')
    .description(
      "register Kioku's hooks in the assistants' user settings (only Kioku's entries are touched; a .bak keeps the previous file)",
    )
    .option(assistantOption, `${assistantHelp} (default: every assistant whose folder exists in HOME)`)
    .option('--json', 'print one JSON array')
    .action((options: HooksCommandOptions) => {
      const ctx = getContext();
      const changes = installHooks(assistantsFor(ctx, options, true), { env: ctx.config.env });
      if (options.json) return ctx.printJson(changes);
      ctx.print(changes.map((c) => changeText(c, false)).join('\n'));
      if (changes.some((c) => c.action !== 'unchanged')) ctx.print('Start a new assistant session for the hooks to take effect.');
    });

  parent
    .command('uninstall')
    .description("remove Kioku's hooks from the assistants' user settings (other hooks and settings stay as they are)")
    .option(assistantOption, `${assistantHelp} (default: all)`)
    .option('--json', 'print one JSON array')
    .action((options: HooksCommandOptions) => {
      const ctx = getContext();
      const changes = uninstallHooks(assistantsFor(ctx, options, false), { env: ctx.config.env });
      if (options.json) return ctx.printJson(changes);
      ctx.print(changes.map((c) => changeText(c, true)).join('\n'));
    });

  parent
    .command('status')
    .description('show, per assistant, whether Kioku hooks are registered, for which events, and whether the hook client they run exists')
    .option(assistantOption, `${assistantHelp} (default: all)`)
    .option('--json', 'print one JSON array')
    .action((options: HooksCommandOptions) => {
      const ctx = getContext();
      const statuses = hooksStatus(assistantsFor(ctx, options, false), { env: ctx.config.env });
      if (options.json) return ctx.printJson(statuses);
      const expected = statuses[0];
      ctx.print(statuses.map(statusText).join('\n'));
      if (expected && !expected.expectedClientExists) {
        ctx.note(`kioku: note: this install's hook client ${expected.expectedClientPath} does not exist yet (run \`npm run build\`)`);
      }
    });
}
