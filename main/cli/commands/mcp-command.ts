import type { Command } from 'commander';
import { KiokuError } from '../../../common/errors.js';
import type { McpAssistant } from '../../core/integrations/mcp/mcp-role.js';
import type { CliContext } from '../cli-context.js';

/**
 * `kioku mcp` (CLI.md; X-MCP): the MCP server over stdio; `--assistant` tells it which client
 * started it, which is how it finds the session's role.
 * Design notes: docs/design-notes.md, "main/cli/commands/mcp-command.ts".
 */
const ASSISTANTS: readonly McpAssistant[] = ['claude', 'codex', 'gemini'];

function assistantOf(value: string | undefined, env: NodeJS.ProcessEnv): McpAssistant | undefined {
  if (value === undefined) return env.CLAUDECODE === '1' ? 'claude' : undefined;
  if ((ASSISTANTS as readonly string[]).includes(value)) return value as McpAssistant;
  throw new KiokuError('BAD_USAGE', `--assistant "${value}" is not one of ${ASSISTANTS.join(', ')}`, {
    hint: 'e.g. kioku mcp --assistant claude',
  });
}

export function registerMcpCommand(parent: Command, getContext: () => CliContext): void {
  const command = parent.name() === 'mcp' ? parent : parent.command('mcp');
  command
    .description('serve Kioku to an assistant over MCP (stdio): recall, remember, bonds, journal, facts, project memory, personas, probes')
    .option('--assistant <name>', "the client: claude, codex or gemini (lets the server find the session's role)")
    .action(async (options: { assistant?: string }) => {
      const assistant = assistantOf(options.assistant, process.env);
      const ctx = getContext();
      const { serveMcpOverStdio } = await import('../../core/integrations/mcp/mcp-server.js');
      await serveMcpOverStdio({ config: ctx.config, logger: ctx.logger, assistant, cwd: process.cwd() });
    });
}
