import { afterAll, beforeAll, expect, it } from 'vitest';
import { KIOKU_BIN } from '../helpers/run-cli.js';
import { describeClient, pinned } from './installed-clients.js';
import { ACTIVE, makeKiokuUserHome, type KiokuUserHome } from './kioku-user-home.js';
import { describeRun, runClient } from './run-client.js';

// Kioku's MCP server (`kioku mcp`, docs/cli.md) through the official Inspector's CLI mode, the
// way a client that is not Claude Code would meet it: list the tools, then call them.
describeClient('inspector', `MCP server through the Inspector CLI (${pinned('inspector')})`, (bin) => {
  let home: KiokuUserHome;
  beforeAll(() => {
    home = makeKiokuUserHome('claude');
  });
  afterAll(async () => {
    await home?.cleanup();
  });

  async function inspect(args: string[]): Promise<Record<string, unknown>> {
    const run = await runClient(
      bin,
      ['--cli', process.execPath, KIOKU_BIN, 'mcp', '--assistant', 'claude', ...args],
      home.env,
      home.project,
    );
    expect(run.code, describeRun(run)).toBe(0);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  }

  it('tools/list names the memory, journal, facts and persona tools, each with an input schema', async () => {
    const { tools } = (await inspect(['--method', 'tools/list'])) as { tools: Array<{ name: string; inputSchema?: unknown }> };
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['recall', 'remember', 'journal_append', 'journal_search', 'facts_read', 'persona_current']),
    );
    for (const tool of tools) expect(tool.inputSchema, tool.name).toBeTruthy();
  });

  it('tools/call recall finds the active role’s memory, and remember writes one that recall then finds', async () => {
    const found = await inspect(['--method', 'tools/call', '--tool-name', 'recall', '--tool-arg', `query=${ACTIVE.memoryCue}`]);
    expect(found.isError ?? false).toBe(false);
    expect(JSON.stringify(found)).toContain(ACTIVE.memory);

    const wrote = await inspect(['--method', 'tools/call', '--tool-name', 'remember', '--tool-arg', 'text=老大週五下午不開會']);
    expect(wrote.isError ?? false, JSON.stringify(wrote)).toBe(false);
    expect(home.memoryText(ACTIVE.id)).toContain('週五下午不開會');
    const again = await inspect(['--method', 'tools/call', '--tool-name', 'recall', '--tool-arg', 'query=週五下午']);
    expect(JSON.stringify(again)).toContain('週五下午不開會');
  });

  it('tools/call persona_current names the active role', async () => {
    const current = await inspect(['--method', 'tools/call', '--tool-name', 'persona_current']);
    expect(current.isError ?? false).toBe(false);
    expect(JSON.stringify(current)).toContain(ACTIVE.id);
  });
});
