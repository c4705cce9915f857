import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeClient, pinned } from './installed-clients.js';
import { ACTIVE, makeKiokuUserHome, type KiokuUserHome } from './kioku-user-home.js';
import { startMockAnthropic } from './mock-anthropic.js';
import { parseJson, type MockServer } from './mock-server.js';
import { describeRun, runClient } from './run-client.js';

// The repo is also a Claude Code plugin (docs/cli.md: .claude-plugin/plugin.json, hooks/hooks.json,
// .mcp.json). Loaded with --plugin-dir into a home where `kioku hooks install` never ran, its
// hooks alone must load the role, and its MCP server must reach the model's tool list.
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPLY = '好的，我記住了。';

describeClient('claude', `Claude Code (${pinned('claude')}) with Kioku as a plugin`, (bin) => {
  let home: KiokuUserHome;
  let mock: MockServer;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    mock = await startMockAnthropic(() => REPLY);
    home = makeKiokuUserHome('claude', { installHooks: false });
    env = {
      ...home.env,
      ANTHROPIC_BASE_URL: mock.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-mock-not-a-key',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    };
    await home.startDaemon();
  });
  afterAll(async () => {
    await home?.cleanup();
    await mock?.close();
  });

  it('passes `claude plugin validate --strict`', async () => {
    const run = await runClient(bin, ['plugin', 'validate', '--strict', REPO], env, home.project);
    expect(run.code, describeRun(run)).toBe(0);
  });

  it('loaded with --plugin-dir: its hooks put the persona in the request, its MCP tools are offered, the turn reaches the inbox', async () => {
    expect(fs.existsSync(path.join(home.root, '.claude', 'settings.json')), 'no hooks installed in the user settings').toBe(false);
    const mark = mock.mark();
    const run = await runClient(bin, ['--plugin-dir', REPO, '-p', '記住：週一早上先看 error budget'], env, home.project);
    expect(run.code, describeRun(run)).toBe(0);
    const sent = mock.sentSince(mark);
    expect(sent.includes(ACTIVE.nature), 'the active role’s nature in the request').toBe(true);
    expect(sent.includes(ACTIVE.memoryCue), 'the active role’s memory in the request').toBe(true);
    const tools = mock.requests
      .slice(mark)
      .flatMap((request) => ((parseJson(request.body).tools ?? []) as Array<{ name?: string }>).map((tool) => tool.name ?? ''));
    expect(
      tools.filter((name) => /kioku/.test(name) && /recall/.test(name)),
      `tools offered: ${[...new Set(tools)].join(', ')}`,
    ).not.toEqual([]);
    await home.waitDrained();
    expect(
      home.inboxUserWords(ACTIVE.id).some((words) => words.includes('error budget')),
      `${ACTIVE.id}'s inbox: ${home.inboxUserWords(ACTIVE.id).join(' | ')}`,
    ).toBe(true);
  });
});
