import type { Command } from 'commander';
import { KiokuError } from '../../../common/errors.js';
import { toStringList } from '../../core/store/memory/memory-file.js';
import { planAgentFile, writeAgentFile, type AgentFilePlan } from '../../core/integrations/setup/role-agent.js';
import type { CliContext } from '../cli-context.js';

/**
 * `kioku role agent <ID> [dir]` (CLI.md, ROLE-11): write the role as a Claude Code sub-agent
 * file. Replacing a file that says something else shows what changes and a token, writes
 * nothing and exits 3; `--confirm TOKEN` applies exactly that change (as `role new` does).
 */
interface AgentOptions {
  confirm?: string;
  tools?: string;
  json?: boolean;
}

const MAX_SHOWN_LINES = 40;

function changeText(plan: AgentFilePlan): string {
  const show = (sign: string, lines: string[]) => [
    ...lines.slice(0, MAX_SHOWN_LINES).map((line) => `${sign} ${line}`),
    ...(lines.length > MAX_SHOWN_LINES ? [`${sign} … ${lines.length - MAX_SHOWN_LINES} more line(s)`] : []),
  ];
  return [...show('-', plan.removed), ...show('+', plan.added)].join('\n');
}

function planJson(plan: AgentFilePlan, action: string) {
  return {
    action,
    id: plan.id,
    name: plan.name,
    file: plan.file,
    ...(plan.token ? { token: plan.token, removed: plan.removed, added: plan.added } : {}),
  };
}

export function registerRoleAgentCommand(parent: Command, getContext: () => CliContext): void {
  parent
    .command('agent')
    .description('export a role as a Claude Code sub-agent file (default folder ~/.claude/agents/; a project uses ./.claude/agents)')
    .argument('<ID>', 'role ID')
    .argument('[dir]', 'folder for <name>.md (default ~/.claude/agents/)')
    .option('--tools <a,b>', 'Claude Code tools the agent may use (default: every tool of the session that sends it)')
    .option('--confirm <TOKEN>', 'replace an existing file with other text: the token shown for that change')
    .option('--json', 'print one JSON object')
    .action((id: string, dir: string | undefined, options: AgentOptions) => {
      const ctx = getContext();
      const tools = options.tools === undefined ? undefined : toStringList(options.tools);
      const plan = planAgentFile(ctx.config, id, dir, { tools });
      if (plan.action === 'replace' && options.confirm?.trim().toLowerCase() !== plan.token) {
        if (options.json) ctx.printJson({ confirmNeeded: true, ...planJson(plan, 'replace') });
        else {
          ctx.print(
            [
              `${plan.file} exists with other text. The new export changes:`,
              '',
              changeText(plan),
              '',
              'Nothing was written. To replace it with exactly this, run the same command again with:',
              `  --confirm ${plan.token}`,
            ].join('\n'),
          );
        }
        const why =
          options.confirm === undefined
            ? 'the agent file exists and replacing it needs confirming'
            : `confirm token "${options.confirm}" does not match this change`;
        throw new KiokuError('CONFIRM_NEEDED', `${why}; nothing was written`, {
          path: plan.file,
          hint: `check the change, then add --confirm ${plan.token}`,
        });
      }
      writeAgentFile(plan, options.confirm);
      const action = plan.action === 'replace' ? 'replaced' : plan.action === 'create' ? 'created' : 'unchanged';
      if (options.json) ctx.printJson(planJson({ ...plan, token: undefined }, action));
      else if (plan.action === 'unchanged') ctx.print(`${plan.file} already holds this export of ${plan.id}; nothing to change.`);
      else {
        ctx.print(
          [
            `${action === 'created' ? 'Wrote' : 'Replaced'} ${plan.file} (sub agent "${plan.name}" = role ${plan.id}).`,
            'Claude Code loads it in new sessions (or after /agents). Whoever sends it should run it with ROLE_SKIP_INSTANCE_LOCK=1.',
          ].join('\n'),
        );
      }
    });
}
