import { spawn } from 'node:child_process';
import { guardChild } from '../helpers/child-guard.js';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatLocalIso } from '../../main/core/platform/config/clock.js';
import { bundleEntry } from '../helpers/bundle-entry.js';
import type { CliResult } from '../helpers/run-cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * `kioku facts`, `kioku project-memory` and `kioku journal` (CLI.md; DSH-1/2/3) as a user runs them:
 * real processes, stdin, exit codes, `--json`, stderr. The limits at their exact edges are shown in
 * main/core/store/notes/*.test.ts (in-process, fast); here each command's contract. The CLI is bundled
 * from source (bundle-entry.ts) so this does not depend on dist/ being built, and processes that
 * do not depend on each other run side by side.
 */
let cli: string;
beforeAll(() => {
  cli = bundleEntry('test/ipc/fixtures/kioku-cli.ts');
});

const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function newHome(): TempHome {
  const home = makeTempHome({ KIOKU_NOW: '2026-03-10T12:00:00+08:00' });
  homes.push(home);
  return home;
}

interface RunOptions {
  input?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

function kioku(home: TempHome, args: string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = guardChild(spawn(process.execPath, [cli, ...args], { env: { ...home.env, ...options.env }, cwd: options.cwd }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

describe('kioku facts', () => {
  it('read reports a missing file (exit 0, nothing created); update takes stdin, says when cleaning changed it; read --json', async () => {
    const home = newHome();
    const file = path.join(home.memoryHome, 'FACT.md');
    const missing = await kioku(home, ['facts', 'read']);
    expect(missing.code).toBe(0);
    expect(missing.stdout).toMatch(/No global facts yet: .*FACT\.md does not exist \(0\/100 行，0\/8,000 位元組\)/);
    expect(fs.existsSync(file)).toBe(false);

    const update = await kioku(home, ['facts', 'update'], { input: '使用者叫阿明\n偏好繁体中文\n' });
    expect(update.code).toBe(0);
    expect(update.stdout).toMatch(/^created .*FACT\.md: 2\/100 行，38\/8,000 位元組/);
    expect(update.stderr).toMatch(/存入的內容與輸入不同/);
    const [json, human] = await Promise.all([kioku(home, ['facts', 'read', '--json']), kioku(home, ['facts', 'read'])]);
    expect(JSON.parse(json.stdout)).toEqual({
      path: file,
      exists: true,
      text: '使用者叫阿明\n偏好繁體中文\n',
      usage: { lines: 2, maxLines: 100, bytes: 38, maxBytes: 8000, over: [] },
    });
    expect(human.stdout).toBe('使用者叫阿明\n偏好繁體中文\n');
    expect(human.stderr).toMatch(/2\/100 行，38\/8,000 位元組/);
  });

  it('refuses 101 lines (exit 1, no stack) and an empty stdin (exit 2) with the file byte-identical', async () => {
    const home = newHome();
    const file = path.join(home.memoryHome, 'FACT.md');
    const hundred = Array.from({ length: 100 }, (_, i) => `第 ${i + 1} 條`).join('\n') + '\n';
    expect((await kioku(home, ['facts', 'update'], { input: hundred })).code).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(hundred);
    const before = fs.readFileSync(file);

    const [tooManyLines, empty] = await Promise.all([
      kioku(home, ['facts', 'update'], { input: `${hundred}第 101 條\n` }),
      kioku(home, ['facts', 'update'], { input: '' }),
    ]);
    expect(tooManyLines.code).toBe(1);
    expect(tooManyLines.stdout).toBe('');
    expect(tooManyLines.stderr).toMatch(/refused to write .*FACT\.md: the new text has 101 lines \(limit 100\); the file was not changed/);
    expect(tooManyLines.stderr).toMatch(/→ shorten it/);
    expect(tooManyLines.stderr).not.toMatch(/at .*\.m?js:\d+/);
    // A forgotten pipe must not wipe the facts.
    expect(empty.code).toBe(2);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });
});

describe('kioku project-memory', () => {
  it('read (default: the current folder) never creates MEMORY.md; update creates it; 8001 characters are refused', async () => {
    const home = newHome();
    const project = fs.mkdtempSync(path.join(home.root, 'proj-'));
    const file = path.join(project, 'MEMORY.md');
    const missing = await kioku(home, ['project-memory', 'read'], { cwd: project });
    expect(missing.code).toBe(0);
    expect(missing.stdout).toMatch(/No project memory: .*MEMORY\.md does not exist/);
    expect(fs.existsSync(file)).toBe(false);

    const created = await kioku(home, ['project-memory', 'update', '--json'], { input: '# 約定\n用 pnpm\n', cwd: project });
    expect(JSON.parse(created.stdout)).toMatchObject({
      project,
      path: file,
      created: true,
      usage: { chars: 11, maxChars: 8000, over: false },
    });
    const before = fs.readFileSync(file);
    const refused = await kioku(home, ['project-memory', 'update', '--project', project], { input: '記'.repeat(8001) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/8001 characters \(limit 8000\)/);
    expect(refused.stderr).toMatch(/journal/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });
});

describe('kioku journal', () => {
  it("append then search: --json is CLI.md's [{ ts, tags, text }], newest first; human output shows #tags", async () => {
    const home = newHome();
    const appended = await Promise.all([
      kioku(home, ['journal', 'append', '--text', '第一次整理部署流程', '--tags', '部署']),
      kioku(home, ['journal', 'append', '--text', '部署流程改成先跑 CI', '--tags', '部署,#ci', '--json'], {
        env: { KIOKU_NOW: '2026-03-11T09:30:00+08:00' },
      }),
    ]);
    expect(appended.map((r) => r.code)).toEqual([0, 0]);
    expect(JSON.parse(appended[1]!.stdout)).toMatchObject({ tags: ['部署', 'ci'], text: '部署流程改成先跑 CI' });

    const [json, human] = await Promise.all([
      kioku(home, ['journal', 'search', '部署流程', '--json']),
      kioku(home, ['journal', 'search', '--tag', 'CI']),
    ]);
    const found = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(found.map((e) => e.text)).toEqual(['部署流程改成先跑 CI', '第一次整理部署流程']);
    for (const entry of found) expect(Object.keys(entry).sort()).toEqual(['tags', 'text', 'ts']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}  #部署 #ci\n  部署流程改成先跑 CI\n$/);
  });

  it('corrupt lines are skipped and counted on stderr, never fatal; a bad --limit is bad usage', async () => {
    const home = newHome();
    const good = JSON.stringify({ ts: '2026-03-01T10:00:00+08:00', tags: [], text: '好的一筆' });
    fs.writeFileSync(path.join(home.memoryHome, 'JOURNAL.jsonl'), `${good}\n{"ts": "broken\nnot json at all\n`);
    const [result, badLimit] = await Promise.all([
      kioku(home, ['journal', 'search', '--json']),
      kioku(home, ['journal', 'search', 'x', '--limit', 'many']),
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(1);
    expect(result.stderr).toMatch(/skipped 2 line\(s\) .*JOURNAL\.jsonl .*line 2, 3/);
    expect(badLimit.code).toBe(2);
  });

  it('an entry with an epoch ts (seed-002 tooling) shows in local time, in --json and in the human output (issue 11)', async () => {
    const home = newHome();
    const at = new Date(Date.UTC(2026, 2, 9, 18, 30, 0));
    fs.writeFileSync(
      path.join(home.memoryHome, 'JOURNAL.jsonl'),
      `${JSON.stringify({ ts: at.getTime(), tags: [], text: '舊工具寫的' })}\n`,
    );
    const [json, human] = await Promise.all([kioku(home, ['journal', 'search', '--json']), kioku(home, ['journal', 'search'])]);
    // The child runs in the test's zone (makeTempHome passes TZ on), so local time is the same on both sides.
    expect(JSON.parse(json.stdout)).toEqual([{ ts: formatLocalIso(at), tags: [], text: '舊工具寫的' }]);
    expect(human.stdout).toBe(`${formatLocalIso(at).slice(0, 10)} ${formatLocalIso(at).slice(11, 16)}\n  舊工具寫的\n`);
    expect(human.stdout).not.toContain('Z');
  });

  it('concurrent appends from several processes all land as whole lines', async () => {
    const home = newHome();
    const runs = await Promise.all([1, 2, 3].map((i) => kioku(home, ['journal', 'append', '--text', `並行的第 ${i} 筆`])));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    const lines = fs.readFileSync(path.join(home.memoryHome, 'JOURNAL.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.map((line) => (JSON.parse(line) as { text: string }).text).sort()).toEqual(
      [1, 2, 3].map((i) => `並行的第 ${i} 筆`).sort(),
    );
  });
});
