import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { appliedDir } from '../../main/core/engine/sleep/sleep-paths.js';
import { guardChild, SHORT_CHILD_DEADLINE_MS } from '../helpers/child-guard.js';
import type { CliResult } from '../helpers/run-cli.js';
import { ACTIVE, claudePayload, makeHookHome, runHook, startReadyDaemon, type HookHome } from '../hooks/hook-kit.js';
import { bundled, killAndWait, waitDrained } from '../ipc/daemon-kit.js';
import { filesEndingWith, grepHome, type Leak } from './home-grep.js';
import { secretKinds, type SecretKind } from './secret-kinds.js';

/**
 * Issue 14, item 6 (PRIV-1): every secret kind the redactor knows through every write channel,
 * then the whole home — memory files, `.sleep/applied/*.json`, archive/raw (unpacked), FACT.md,
 * JOURNAL.jsonl, the project's MEMORY.md, logs, state, and the SQLite index file as bytes — is
 * searched for each secret in clear, and for the head and tail of its long runs (a JWT cut into
 * tags is found too). The kinds are batched: one text holds them all, one run per channel.
 *
 * Each test gets a fresh home, and a leak counts for the step that wrote it (a later step in the
 * same home reports only new ones), so a leak is the channel's own; the table of kind × channel
 * is printed at the end (the issue's must-show). A cell names the placeholders the row got, `—` when
 * the channel does not keep that row as written (a condensed capture, a consolidated memory: the
 * row may be summarised away), or the file the secret leaked into.
 *
 * Real processes throughout, each with a deadline and stopped when its test ends (child-guard.ts):
 * the shipped `kioku` entry bundled from source, the hook client, the daemon, the MCP server.
 */
const CLI = 'test/ipc/fixtures/kioku-cli.ts';
const KINDS = secretKinds();
const TEXT = KINDS.map((kind) => kind.line).join('\n');
const ALL_NEEDLES = KINDS.flatMap((kind) => kind.needles);

type Cell = string;
const table = new Map<string, Map<string, Cell>>(KINDS.map((kind) => [`${kind.marker} ${kind.kind}`, new Map()]));
const channels: string[] = [];

afterAll(() => {
  const width = Math.max(...[...table.keys()].map((key) => key.length));
  const cols = channels.map((channel) => Math.max(channel.length, ...[...table.values()].map((row) => (row.get(channel) ?? '').length)));
  const lines = [`${'kind'.padEnd(width)} | ${channels.map((channel, i) => channel.padEnd(cols[i]!)).join(' | ')}`];
  lines.push(`${'-'.repeat(width)}-|-${cols.map((col) => '-'.repeat(col)).join('-|-')}`);
  for (const [kind, row] of table)
    lines.push(`${kind.padEnd(width)} | ${channels.map((channel, i) => (row.get(channel) ?? '?').padEnd(cols[i]!)).join(' | ')}`);
  process.stdout.write(
    `\nsecret kind × write channel (cell: the [REDACTED:…] placeholders of the row = masked; — = row not kept as written; LEAK = found in clear)\n${lines.join('\n')}\n`,
  );
});

const homes: HookHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

async function newHome(): Promise<HookHome> {
  const home = await makeHookHome();
  homes.push(home);
  return home;
}

function kioku(home: HookHome, args: string[], options: { input?: string; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = guardChild(spawn(process.execPath, [bundled(CLI), ...args], { env: home.env, cwd: options.cwd ?? home.root }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

async function ok(home: HookHome, args: string[], options: { input?: string; cwd?: string } = {}): Promise<CliResult> {
  const result = await kioku(home, args, options);
  expect(result.code, `kioku ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result;
}

/** The folders that are the test's own input, not Kioku's writing: the assistant's transcripts. */
const skipOf = (home: HookHome) => [path.join(home.root, '.claude')];

/** Leaks not seen before (a home's earlier channel already reported those). */
function newLeaks(home: HookHome, seen: Set<string>): Leak[] {
  const leaks = grepHome(home.root, ALL_NEEDLES, skipOf(home)).filter((leak) => !seen.has(`${leak.file}\0${leak.needle}`));
  leaks.forEach((leak) => seen.add(`${leak.file}\0${leak.needle}`));
  return leaks;
}

/**
 * The placeholders in a row of a channel's output (`aws-key+aws-secret-key`), `NOT MASKED` when
 * the row is there without one, undefined when the row is not there. A row runs from its marker
 * to the next marker or line end (the private key's row to the next marker: the key is on the
 * lines below its words); a row found more than once (a memory's summary and its body) counts
 * with the placeholders of all its copies.
 */
function placeholdersOf(output: string, kind: SecretKind): string | undefined {
  const found = new Set<string>();
  let seen = false;
  for (let at = output.indexOf(`${kind.marker} `); at !== -1; at = output.indexOf(`${kind.marker} `, at + 1)) {
    seen = true;
    const rest = output.slice(at + kind.marker.length);
    const next = rest.search(/K\d\d /);
    let row = next === -1 ? rest : rest.slice(0, next);
    if (kind.kind !== 'private-key') row = row.split('\n')[0]!;
    for (const match of row.matchAll(/\[REDACTED:([^\]]+)\]/g)) found.add(match[1]!);
  }
  if (!seen) return undefined;
  return found.size ? [...found].join('+') : 'NOT MASKED';
}

/**
 * Fill the channel's column and assert it: no needle anywhere in the home; and where the channel
 * keeps text as written (`verbatim`), every row is there with a placeholder.
 */
function record(channel: string, output: string, leaks: Leak[], verbatim: boolean): void {
  channels.push(channel);
  const failures: string[] = [];
  for (const kind of KINDS) {
    const leaked = leaks.filter((leak) => kind.needles.includes(leak.needle));
    const placeholder = placeholdersOf(output, kind);
    const cell = leaked.length ? `LEAK ${[...new Set(leaked.map((leak) => path.basename(leak.file)))].join(',')}` : (placeholder ?? '—');
    table.get(`${kind.marker} ${kind.kind}`)!.set(channel, cell);
    if (leaked.length) failures.push(`${kind.marker} ${kind.kind}: ${leaked.map((leak) => `${leak.file}: …${leak.context}…`).join(' | ')}`);
    else if (verbatim && (!placeholder || placeholder === 'NOT MASKED')) failures.push(`${kind.marker} ${kind.kind}: ${cell}`);
  }
  expect(failures, `${channel}: secrets in clear or rows lost`).toEqual([]);
}

function memoryText(home: HookHome, filter: (source: string, category: string) => boolean): string {
  return loadRoleMemories(home.memoryHome, ACTIVE.id)
    .memories.filter((memory) => filter(String(memory.extra.source ?? ''), memory.category))
    .map((memory) => [memory.summary, memory.body, memory.tags.join('\n'), memory.cues.join('\n')].join('\n'))
    .join('\n');
}

/** Put the role's memories into the SQLite index (recall syncs it), so the index file is searched too. */
async function index(home: HookHome): Promise<void> {
  await ok(home, ['memory', 'recall', '--query', '部署', '--role', ACTIVE.id]);
  expect(filesEndingWith(home.root, 'index.sqlite').length, 'the SQLite index exists to be searched').toBe(1);
}

function journalText(home: HookHome): string {
  return fs
    .readFileSync(home.config().paths.journalFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { text: string }).text)
    .join('\n');
}

describe('every secret kind through every write channel, then a grep of the whole home (issue 14)', () => {
  it('kioku memory remember', async () => {
    const home = await newHome();
    const seen = new Set<string>();
    const result = await ok(home, ['memory', 'remember', '--text', TEXT, '--json']);
    const file = (JSON.parse(result.stdout) as { path: string }).path;
    await index(home);
    record('remember', fs.readFileSync(file, 'utf8'), newLeaks(home, seen), true);
  });

  it('capture: a Stop hook with the daemon down (spooled), then ingested by the daemon', async () => {
    const home = await newHome();
    const seen = new Set<string>();
    // A few rows per turn, one session each: a condensed turn keeps the gist of a short turn, so
    // every row gets its chance to be kept (and its words cut into tags and cues).
    const reply = '好，我記住了，之後部署會用到這些。';
    const groups = Math.ceil(KINDS.length / 4);
    for (let g = 0; g < groups; g++) {
      const session = `sess-secrets-${g}`;
      const user = `記住以下這些，之後部署要用：\n${KINDS.slice(g * 4, g * 4 + 4)
        .map((kind) => kind.line)
        .join('\n')}`;
      home.transcript(session, [
        ['先幫我看一下 CI 為什麼紅了', 'CI 的 lint 步驟失敗，是少了一個分號。'],
        [user, reply],
      ]);
      const hook = await runHook('stop', claudePayload(home, 'stop', session, { last_assistant_message: reply }), home.env);
      expect(hook).toMatchObject({ code: 0, stdout: '' });
    }
    expect(fs.readdirSync(home.config().paths.spoolDir).filter((name) => name.endsWith('.json'))).toHaveLength(groups);
    const daemon = await startReadyDaemon(home);
    await waitDrained(home, daemon);
    await killAndWait(daemon, 'SIGTERM');
    const captured = memoryText(home, (source) => source.startsWith('capture:'));
    expect(captured, 'the turn was captured').not.toBe('');
    await index(home);
    record('capture (spooled)', captured, newLeaks(home, seen), false);
  });

  it('kioku journal append, facts update, project-memory update', async () => {
    const home = await newHome();
    const seen = new Set<string>();
    await ok(home, ['journal', 'append', '--text', TEXT, '--tags', '部署']);
    record('journal', journalText(home), newLeaks(home, seen), true);
    await ok(home, ['facts', 'update'], { input: `${TEXT}\n` });
    record('facts (FACT.md)', fs.readFileSync(home.config().paths.factsFile, 'utf8'), newLeaks(home, seen), true);
    await ok(home, ['project-memory', 'update', '--project', home.project], { input: `# shop-api\n\n${TEXT}\n` });
    record('project memory (MEMORY.md)', fs.readFileSync(path.join(home.project, 'MEMORY.md'), 'utf8'), newLeaks(home, seen), true);
  });

  it('kioku mcp: remember, journal_append, facts_update, project_memory_update', async () => {
    const home = await newHome();
    const seen = new Set<string>();
    const env = Object.fromEntries(Object.entries(home.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bundled(CLI), 'mcp', '--assistant', 'claude'],
      env,
      cwd: home.project,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'kioku-hostile-test', version: '1.0.0' });
    // The server's deadline, pass or fail: killed at the end of the test, or when it hangs.
    const killServer = () => {
      try {
        if (transport.pid !== null) process.kill(transport.pid, 'SIGKILL');
      } catch {
        /* gone already */
      }
    };
    const deadline = setTimeout(killServer, SHORT_CHILD_DEADLINE_MS * 2);
    try {
      await client.connect(transport);
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      };
      const before = new Set(loadRoleMemories(home.memoryHome, ACTIVE.id).memories.map((memory) => memory.path));
      await call('remember', { text: TEXT, tags: ['部署'] });
      const written = loadRoleMemories(home.memoryHome, ACTIVE.id).memories.filter((memory) => !before.has(memory.path));
      expect(written).toHaveLength(1);
      await index(home);
      record('MCP remember', fs.readFileSync(written[0]!.path, 'utf8'), newLeaks(home, seen), true);
      await call('journal_append', { text: TEXT, tags: ['部署'] });
      record('MCP journal_append', journalText(home), newLeaks(home, seen), true);
      await call('facts_update', { text: `${TEXT}\n` });
      record('MCP facts_update', fs.readFileSync(home.config().paths.factsFile, 'utf8'), newLeaks(home, seen), true);
      await call('project_memory_update', { text: `# shop-api\n\n${TEXT}\n`, project: home.project });
      record('MCP project_memory_update', fs.readFileSync(path.join(home.project, 'MEMORY.md'), 'utf8'), newLeaks(home, seen), true);
    } finally {
      clearTimeout(deadline);
      await client.close().catch(() => undefined);
      killServer();
    }
  });

  it('kioku sleep: the remembered secrets consolidated (.sleep/applied, tags, cues, archive/raw, index)', async () => {
    const home = await newHome();
    const seen = new Set<string>();
    await ok(home, ['memory', 'remember', '--text', TEXT]);
    // Shorter items as well, which the planner keeps more of.
    const third = Math.ceil(KINDS.length / 3);
    for (let i = 0; i < KINDS.length; i += third) {
      await ok(home, [
        'memory',
        'remember',
        '--text',
        `記住：${KINDS.slice(i, i + third)
          .map((kind) => kind.line)
          .join('\n')}`,
      ]);
    }
    newLeaks(home, seen); // the remember channel's own findings are its column, not this one
    const run = await kioku(home, ['sleep', '--force', '--json', '--role', ACTIVE.id]);
    expect(run.code, run.stderr).toBe(0);
    const applied = appliedDir(home.memoryHome, ACTIVE.id);
    const plans = fs.readdirSync(applied).map((name) => fs.readFileSync(path.join(applied, name), 'utf8'));
    expect(plans.length, 'sleep applied a plan').toBeGreaterThan(0);
    expect(memoryText(home, (_source, category) => category === 'inbox')).toBe('');
    await index(home);
    // The applied plans are JSON: their strings unescaped, so a row's line is a line again.
    const planText = plans.map((plan) => JSON.stringify(JSON.parse(plan), null, 1).replace(/\\n/g, '\n')).join('\n');
    record('sleep', `${planText}\n${memoryText(home, () => true)}`, newLeaks(home, seen), false);
  });
});
