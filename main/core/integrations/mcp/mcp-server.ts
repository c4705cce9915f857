import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerNotesTools } from './mcp-notes-tools.js';
import { registerMemoryTools } from './mcp-memory-tools.js';
import { registerPersonaTools } from './mcp-persona-tools.js';
import { createToolContext, type McpServerSettings } from './mcp-tool-kit.js';

/**
 * `kioku mcp` (X-MCP): the same core as the CLI and the hooks, as MCP tools over stdio, so any
 * assistant can recall, remember, search the journal, read and update facts and project memory
 * within their limits, list personas and manage probes. stdout carries the protocol and nothing
 * else; logs go to `<state>/logs/kioku.log`.
 */
export const MCP_TOOL_NAMES = [
  'recall',
  'remember',
  'bonds',
  'journal_append',
  'journal_search',
  'facts_read',
  'facts_update',
  'project_memory_read',
  'project_memory_update',
  'persona_list',
  'persona_current',
  'persona_show',
  'probe_add',
  'probe_confirm',
  'probe_deny',
] as const;

const INSTRUCTIONS = [
  'Kioku keeps the user\'s persona ("role") and long-term memory as Markdown files; the user writes Traditional Chinese (Taiwan).',
  "Before answering where earlier conversations matter, call recall (the role's memories) or journal_search (session notes, past pitfalls).",
  'facts_update and project_memory_update replace the whole file and refuse texts over their limits without changing anything: read first, edit, send the whole text.',
  'Stable cross-project facts → facts_update; this repository\'s conventions → project_memory_update; one-off events and long notes → journal_append; "remember this" → remember.',
].join('\n');

export function createKiokuMcpServer(settings: McpServerSettings): McpServer {
  const server = new McpServer({ name: 'kioku', title: 'Kioku（記憶）', version: '0.1.0' }, { instructions: INSTRUCTIONS });
  const ctx = createToolContext(settings);
  registerMemoryTools(server, ctx);
  registerNotesTools(server, ctx);
  registerPersonaTools(server, ctx);
  return server;
}

/**
 * Serve over this process's stdin/stdout until the client closes stdin. Anything a library might
 * print with console.log goes to stderr instead: one stray line on stdout would break the
 * protocol for the client.
 */
export async function serveMcpOverStdio(settings: McpServerSettings): Promise<void> {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const server = createKiokuMcpServer(settings);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  const stop = () => {
    void server.close().catch(() => undefined);
  };
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  await server.connect(new StdioServerTransport());
  settings.logger.info(
    'mcp',
    `serving ${MCP_TOOL_NAMES.length} tools over stdio (assistant ${settings.assistant ?? 'unknown'}, cwd ${settings.cwd})`,
  );
  await closed;
  settings.logger.info('mcp', 'client closed the connection');
}
