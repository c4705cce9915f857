import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LONG_CHILD_DEADLINE_MS } from '../helpers/child-guard.js';
import { formatLocalIso } from '../../main/core/platform/config/clock.js';
import { parseFrontmatter } from '../../main/core/platform/frontmatter/parse-frontmatter.js';
import { writeMemory, type MemoryDraft } from '../../main/core/store/memory/memory-writer.js';
import { claudeProjectFolderName } from '../../main/core/integrations/mcp/mcp-role.js';
import { MCP_TOOL_NAMES } from '../../main/core/integrations/mcp/mcp-server.js';
import { LEGACY_HELPER, SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL, writeText } from '../cli/role-test-fixtures.js';
import { bundleEntry } from '../helpers/bundle-entry.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * X-MCP over real stdio (issue #6 "must show"): the shipped `kioku` entry, bundled from source,
 * started as `kioku mcp --assistant claude` by the SDK's own client, exactly as Claude Code starts
 * the plugin's server. One server for the whole file: every tool call below goes through the
 * protocol, and a stray byte on the server's stdout would surface as a client error.
 */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
let home: TempHome;
let project: string;
let client: Client;
let transport: StdioClientTransport;
let stderr = '';
const protocolErrors: unknown[] = [];
const memoryPaths: Record<string, string> = {};

function transportArgs(): string[] {
  const registration = JSON.parse(fs.readFileSync(path.join(REPO, '.mcp.json'), 'utf8')).mcpServers.kioku as { args: string[] };
  return registration.args.slice(1);
}

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

beforeAll(async () => {
  const cli = bundleEntry('test/ipc/fixtures/kioku-cli.ts');
  home = makeTempHome({ KIOKU_NOW: '2026-03-10T12:00:00+08:00' });
  project = fs.mkdtempSync(path.join(home.root, 'project-'));
  writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
  writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
  writeText(home.roleHome, 'HELPER01.md', LEGACY_HELPER);
  writeText(home.roleHome, '.active', 'ENGINEER01\n');
  const config = home.config();
  const memories: Record<string, MemoryDraft> = {
    deploy: {
      category: 'important',
      memory_type: 'procedural',
      priority: 4,
      tags: ['部署'],
      summary: '部署流程：先跑 CI，再用 deploy.sh 上線',
      body: '部署流程：先在本機跑 npm test，CI 綠了才執行 ./deploy.sh production。',
    },
    review: {
      category: 'skill',
      memory_type: 'procedural',
      priority: 3,
      tags: ['流程'],
      summary: 'code review 流程：兩個人核准才合併',
      body: '合併前要兩個人核准。',
    },
    coffee: { category: 'interest', priority: 3, summary: '喜歡喝黑咖啡', body: '使用者每天早上喝黑咖啡，不加糖。' },
    grant: {
      category: 'important',
      memory_type: 'preference',
      priority: 5,
      summary: '這次可以直接 force push',
      body: '使用者說這次可以直接 force push。',
      expires: '本工作階段（session s-1，2026-03-10 授權）',
    },
  };
  for (const [key, draft] of Object.entries(memories)) memoryPaths[key] = (await writeMemory(config, 'ENGINEER01', draft)).memory.path;

  // Started with the plugin's own registration (.mcp.json), the script path swapped for the bundle.
  const registration = JSON.parse(fs.readFileSync(path.join(REPO, '.mcp.json'), 'utf8')).mcpServers.kioku as {
    command: string;
    args: string[];
  };
  expect(registration.command).toBe('node');
  expect(registration.args[0]).toBe('${CLAUDE_PLUGIN_ROOT}/bin/kioku.js');
  expect(fs.existsSync(path.join(REPO, 'bin', 'kioku.js'))).toBe(true);
  const env = Object.fromEntries(Object.entries(home.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, ...registration.args.slice(1)],
    env,
    cwd: project,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  client = new Client({ name: 'kioku-test', version: '1.0.0' });
  client.onerror = (error) => protocolErrors.push(error);
  await client.connect(transport);
  // A deadline for the server process, pass or fail: a hung server is killed, never left behind.
  serverPid = transport.pid;
  deadline = setTimeout(killServer, LONG_CHILD_DEADLINE_MS);
  deadline.unref();
});

let serverPid: number | null = null;
let deadline: NodeJS.Timeout | undefined;

function killServer(): void {
  if (serverPid === null) return;
  try {
    process.kill(serverPid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

afterAll(async () => {
  clearTimeout(deadline);
  await client?.close();
  killServer();
  home?.cleanup();
});

describe('kioku mcp over stdio', () => {
  it('initializes and lists all 15 tools, each with a description and an input schema', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'kioku' });
    expect(transportArgs()).toEqual(['mcp', '--assistant', 'claude']);
    expect(client.getInstructions()).toMatch(/recall/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    expect(MCP_TOOL_NAMES).toHaveLength(15);
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
    }
    const factsUpdate = tools.find((tool) => tool.name === 'facts_update');
    expect(factsUpdate?.description).toMatch(/100 lines/);
    expect(factsUpdate?.description).toMatch(/facts_read first/);
  });

  it('recall on a Chinese phrase returns the right memory first, counts it, and leaves the others alone', async () => {
    const result = await call('recall', { query: '部署流程' });
    expect(result.isError).toBeFalsy();
    const memories = (result.structuredContent as { memories: Array<{ path: string; summary: string; body: string }> }).memories;
    expect(memories[0]).toMatchObject({ path: memoryPaths.deploy, summary: '部署流程：先跑 CI，再用 deploy.sh 上線' });
    expect(memories[0]!.body).toContain('./deploy.sh production');
    expect(memories.map((m) => m.path)).not.toContain(memoryPaths.coffee);
    expect(textOf(result)).toMatch(/^角色 ENGINEER01 符合「部署流程」的記憶 \d 筆/);
    expect(textOf(result)).toContain('1. 部署流程：先跑 CI，再用 deploy.sh 上線');
    expect(parseFrontmatter(fs.readFileSync(memoryPaths.deploy!, 'utf8')).data).toMatchObject({ hits: 1 });
    expect(parseFrontmatter(fs.readFileSync(memoryPaths.coffee!, 'utf8')).data.hits ?? 0).toBe(0);
  });

  it("recall marks a temporary grant as another session's, never as a standing rule (MEM-8, issue 12)", async () => {
    const result = await call('recall', { query: 'force push' });
    const memories = (result.structuredContent as { memories: Array<{ path: string; grant?: unknown }> }).memories;
    expect(memories[0]).toMatchObject({
      path: memoryPaths.grant,
      grant: { kind: 'session', expires: '本工作階段（session s-1，2026-03-10 授權）' },
    });
    expect(textOf(result)).toContain('臨時授權，只在授權當時的那個工作階段有效，不適用於目前的工作階段');
  });

  it('facts_update accepts 100 lines and refuses 101 as an isError result, the file byte-identical', async () => {
    const file = path.join(home.memoryHome, 'FACT.md');
    const hundred = Array.from({ length: 100 }, (_, i) => `事實 ${i + 1}`).join('\n') + '\n';
    const accepted = await call('facts_update', { text: hundred });
    expect(accepted.isError).toBeFalsy();
    expect(textOf(accepted)).toMatch(/100\/100 行/);
    const before = fs.readFileSync(file);
    expect(before.toString('utf8')).toBe(hundred);

    const refused = await call('facts_update', { text: `${hundred}事實 101\n` });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/101 lines \(limit 100\); the file was not changed\n→ shorten it/);
    expect(refused.structuredContent).toMatchObject({ error: { code: 'LIMIT_EXCEEDED' } });
    expect(fs.readFileSync(file).equals(before)).toBe(true);

    const read = await call('facts_read');
    expect(read.structuredContent).toMatchObject({ exists: true, usage: { lines: 100, over: [] } });
  });

  it('journal_append then journal_search finds it by a Chinese substring and by tag', async () => {
    const appended = await call('journal_append', { text: '今天把部署流程改成先跑 CI 再上線', tags: ['部署', '#CI'] });
    expect(appended.isError).toBeFalsy();
    expect(appended.structuredContent).toMatchObject({ entry: { tags: ['部署', 'CI'], text: '今天把部署流程改成先跑 CI 再上線' } });
    await call('journal_append', { text: '咖啡機壞了' });

    const found = await call('journal_search', { query: '流程改成' });
    expect((found.structuredContent as { entries: unknown[] }).entries).toEqual([
      { ts: expect.any(String), tags: ['部署', 'CI'], text: '今天把部署流程改成先跑 CI 再上線' },
    ]);
    expect(textOf(found)).toMatch(/#部署 #CI/);
    const byTag = await call('journal_search', { tag: 'ci' });
    expect((byTag.structuredContent as { entries: Array<{ text: string }> }).entries.map((e) => e.text)).toEqual([
      '今天把部署流程改成先跑 CI 再上線',
    ]);
    const newest = await call('journal_search', {});
    expect((newest.structuredContent as { total: number }).total).toBe(2);
  });

  it('journal_search shows an epoch ts (seed-002 tooling) in local time, like the entries Kioku writes (issue 11)', async () => {
    const at = new Date(Date.UTC(2026, 2, 9, 18, 30, 0));
    fs.appendFileSync(
      path.join(home.memoryHome, 'JOURNAL.jsonl'),
      `${JSON.stringify({ ts: at.getTime(), tags: [], text: '舊工具寫的毫秒時間' })}\n`,
    );
    const found = await call('journal_search', { query: '舊工具' });
    expect((found.structuredContent as { entries: unknown[] }).entries).toEqual([
      { ts: formatLocalIso(at), tags: [], text: '舊工具寫的毫秒時間' },
    ]);
    expect(textOf(found)).toContain(`[${formatLocalIso(at)}]`);
  });

  it('persona_current resolves .active, then the role this Claude Code session switched to', async () => {
    const active = await call('persona_current');
    expect(active.structuredContent).toMatchObject({ id: 'ENGINEER01', name: '小豹', source: 'active' });
    expect(textOf(active)).toMatch(/目前的角色：🐆 小豹（ENGINEER01）/);

    // The session that is calling: the newest transcript in this project's Claude Code folder,
    // whose `.sessions/<id>.role` says it switched to HELPER01 by a call (CALL-3).
    const sessionId = '6f1c2d3e-0000-4000-8000-000000000001';
    const transcripts = path.join(home.root, '.claude', 'projects', claudeProjectFolderName(project));
    writeText(transcripts, `${sessionId}.jsonl`, '{}\n');
    writeText(home.roleHome, `.sessions/${sessionId}.role`, 'HELPER01\n');
    const switched = await call('persona_current');
    expect(switched.structuredContent).toMatchObject({ id: 'HELPER01', name: '結衣', source: 'session' });
    const list = await call('persona_list');
    expect(list.structuredContent).toMatchObject({ activeRole: 'ENGINEER01', sessionRole: 'HELPER01' });
    // An explicit role argument wins over both.
    const shown = await call('persona_show', { role: '小豹' });
    expect(shown.structuredContent).toMatchObject({ id: 'ENGINEER01', nature: expect.stringContaining('冷靜可靠') });
    fs.rmSync(path.join(home.roleHome, '.sessions'), { recursive: true });
  });

  it('errors are isError results with what to do, and the server keeps serving', async () => {
    const unknownRole = await call('recall', { query: '咖啡', role: 'NOPE99' });
    expect(unknownRole.isError).toBe(true);
    expect(textOf(unknownRole)).toMatch(/no role NOPE99/);
    expect(textOf(unknownRole)).toMatch(/→ /);
    const probe = await call('probe_confirm', { id: 'no-such-memory' });
    expect(probe.isError).toBe(true);
    expect(textOf(probe)).toMatch(/has no memory with id "no-such-memory"/);
    const missingProject = await call('project_memory_read');
    expect(missingProject.isError).toBeFalsy();
    expect(missingProject.structuredContent).toMatchObject({ project, exists: false });
    expect(fs.existsSync(path.join(project, 'MEMORY.md'))).toBe(false);
    expect((await call('bonds')).isError).toBeFalsy();
  });

  it('stdout carried nothing but the protocol', () => {
    expect(protocolErrors, `client errors; server stderr:\n${stderr}`).toEqual([]);
  });
});
