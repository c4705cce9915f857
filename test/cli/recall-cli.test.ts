import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatLocalIso } from '../../main/core/platform/config/clock.js';
import { parseFrontmatter } from '../../main/core/platform/frontmatter/parse-frontmatter.js';
import { APPLY_AT_BYTES, replayQueueFile } from '../../main/core/store/index/replay-queue.js';
import { KIOKU_BIN, runKioku, runKiokuJson } from '../helpers/run-cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { ROLE, writeMemory } from './recall-test-fixtures.js';

// These run the built CLI (`npm run build` first; `npm test` does it in pretest).
const homes: TempHome[] = [];
// "Now" for every CLI here: noon on 2026-03-10 in the zone the test runs in (the child inherits TZ).
const NOW = new Date(2026, 2, 10, 12, 0, 0);
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function homeWithMemories(env: NodeJS.ProcessEnv = {}): TempHome {
  const home = makeTempHome({ KIOKU_NOW: formatLocalIso(NOW), ...env });
  homes.push(home);
  writeMemory(home.memoryHome, 'daily', { id: 'haircut', summary: '近況', body: '使用者昨天去剪了頭髮，覺得很清爽', tags: ['生活'] });
  writeMemory(home.memoryHome, 'important', { id: 'rule', summary: '提到頭髮時不要評論外表', memory_type: 'rule', priority: 4 });
  writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '喜歡喝黑咖啡' });
  return home;
}

interface RecallJson {
  id: string;
  summary: string;
  category: string;
  memory_type: string;
  priority: number;
  path: string;
  score: number;
  hits: number;
  last_replayed: string;
}

/** The routes the direct recall bundle's code cache was made on (code-cached-require.ts: 'KCC1', a u16 length, the names). */
function directCacheRoutes(cacheDir: string): string[] {
  const [file] = fs.readdirSync(cacheDir).filter((name) => name.startsWith('recall-direct-fast-') && name.endsWith('.v8cache'));
  const bytes = fs.readFileSync(path.join(cacheDir, file!));
  return bytes.toString('utf8', 6, 6 + bytes.readUInt16LE(4)).split('\n');
}

describe('kioku memory recall', () => {
  it('ends at once once its fast path has answered (process.exit, which --trace-exit reports), and prints nothing else', () => {
    const home = homeWithMemories();
    const run = spawnSync(process.execPath, ['--trace-exit', KIOKU_BIN, 'memory', 'recall', '--query', '頭髮', '--role', ROLE, '--json'], {
      env: home.env,
      encoding: 'utf8',
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    expect(run.status).toBe(0);
    expect((JSON.parse(run.stdout) as RecallJson[]).map((m) => m.id)).toEqual(['rule', 'haircut']);
    expect(run.stderr).toContain('Exited the environment with code 0');
    // A command the fast path leaves to the full CLI ends the usual way.
    const full = spawnSync(
      process.execPath,
      ['--trace-exit', KIOKU_BIN, 'memory', 'recall', '--query', '頭髮', '--role', ROLE, '--limit', 'x'],
      {
        env: home.env,
        encoding: 'utf8',
        timeout: 60_000,
        killSignal: 'SIGKILL',
      },
    );
    expect(full.status).not.toBe(0);
    expect(full.stderr).not.toContain('Exited the environment with code 0');
  });

  it("--json prints CLI.md's shape, best first, and counts the recall in the files", () => {
    const home = homeWithMemories();
    const found = runKiokuJson<RecallJson[]>(['memory', 'recall', '--query', '頭髮', '--role', ROLE], home.env);
    expect(found.map((m) => m.id)).toEqual(['rule', 'haircut']);
    for (const memory of found) {
      expect(Object.keys(memory)).toEqual(
        expect.arrayContaining(['id', 'summary', 'category', 'memory_type', 'priority', 'path', 'score']),
      );
      expect(typeof memory.score).toBe('number');
      expect(fs.existsSync(memory.path)).toBe(true);
    }
    expect(found[0]).toMatchObject({ summary: '提到頭髮時不要評論外表', category: 'important', memory_type: 'rule', priority: 4 });
    // Counted at once in what recall shows, written into the file when the queue is applied.
    const haircut = found[1]!.path;
    const before = fs.readFileSync(haircut, 'utf8');
    expect(found[1]).toMatchObject({ hits: 1, last_replayed: formatLocalIso(NOW) });
    const trace = path.join(home.root, 'trace.jsonl');
    const again = runKiokuJson<RecallJson[]>(['memory', 'recall', '--query', '頭髮', '--role', ROLE], { ...home.env, KIOKU_TRACE: trace });
    expect(again[1]).toMatchObject({ id: 'haircut', hits: 2 });
    // Issue 17: the first recall without the daemon wrote the direct bundle's code cache; this one took it.
    const cacheDir = path.join(home.config().paths.stateDir, 'cache');
    expect(fs.readdirSync(cacheDir).filter((name) => name.startsWith('recall-direct-fast-') && name.endsWith('.v8cache'))).toHaveLength(1);
    const marks = Object.keys((JSON.parse(fs.readFileSync(trace, 'utf8')) as { marks: object }).marks);
    // Without a daemon's socket the launcher (recall-launcher.ts) loads this bundle alone: the
    // daemon's fast path is neither loaded nor asked, so it has no cache here (the daemon parity test has it).
    expect(marks[0]).toBe('direct-cached');
    expect(marks).not.toContain('daemon-asked');
    expect(fs.readdirSync(cacheDir).filter((name) => name.startsWith('recall-fast-'))).toEqual([]);
    // Made on a CJK query; a query of words runs other code, and writes the cache again with it.
    expect(directCacheRoutes(cacheDir)).toEqual(['recall/cjk/json']);
    runKiokuJson<RecallJson[]>(['memory', 'recall', '--query', 'deploy', '--role', ROLE], home.env);
    expect(directCacheRoutes(cacheDir)).toEqual(['recall/cjk/json', 'recall/word/json']);
    expect(fs.readFileSync(haircut, 'utf8')).toBe(before);
    expect(runKioku(['memory', 'reindex'], home.env).code).toBe(0);
    expect(parseFrontmatter(fs.readFileSync(haircut, 'utf8')).data).toMatchObject({ hits: 2, last_replayed: formatLocalIso(NOW) });
    expect(runKiokuJson<RecallJson[]>(['memory', 'recall', '--query', '頭髮', '--role', ROLE], home.env)[1]).toMatchObject({ hits: 3 });
  });

  it('leaves a long queue of hits to a process of its own, which writes them into the files (issue 17)', async () => {
    const home = homeWithMemories();
    const first = runKiokuJson<RecallJson[]>(['memory', 'recall', '--query', '頭髮', '--role', ROLE], home.env);
    const haircut = first.find((memory) => memory.id === 'haircut')!;
    // Earlier recalls' hits, queued as a recall queues them, past the length that gets a queue applied.
    const queue = replayQueueFile(home.memoryHome, ROLE);
    const line = `${JSON.stringify({
      at: formatLocalIso(NOW),
      hits: [[path.relative(home.memoryHome, haircut.path).split(path.sep).join('/'), 'daily', fs.statSync(haircut.path).mtimeMs]],
    })}\n`;
    const earlier = Math.ceil(APPLY_AT_BYTES / Buffer.byteLength(line));
    fs.appendFileSync(queue, line.repeat(earlier));
    const run = spawnSync(process.execPath, [KIOKU_BIN, 'memory', 'recall', '--query', '頭髮', '--role', ROLE, '--json'], {
      env: home.env,
      input: '',
      encoding: 'utf8',
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    expect(run.status, run.stderr).toBe(0);
    // The answer counts every queued hit, its own included: 1 (the first recall) + earlier + 1.
    expect((JSON.parse(run.stdout) as RecallJson[]).find((memory) => memory.id === 'haircut')?.hits).toBe(earlier + 2);
    const log = path.join(home.config().paths.logsDir, 'kioku.log');
    const applied = /queued hits of \S+ written back \(pid (\d+)\)/;
    // A wait for the detached applier to finish (its work, not its speed, is what is checked):
    // polled, and given up after 30 s so that a test never hangs on a process it cannot kill.
    const deadline = Date.now() + 30_000;
    while (!(fs.existsSync(log) && applied.test(fs.readFileSync(log, 'utf8'))) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const pid = Number(applied.exec(fs.readFileSync(log, 'utf8'))?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(run.pid);
    expect(parseFrontmatter(fs.readFileSync(haircut.path, 'utf8')).data).toMatchObject({ hits: earlier + 2 });
    expect(fs.existsSync(queue) ? fs.statSync(queue).size : 0).toBe(0);
  });

  it('without the daemon, loads no stream, readline or perf_hooks module: about 4 ms of every recall (issue 17)', () => {
    const home = homeWithMemories();
    const dump = path.join(home.root, 'modules.txt');
    const recorder = path.join(home.root, 'record-modules.cjs');
    fs.writeFileSync(
      recorder,
      `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(dump)}, [...process.moduleLoadList, ...Object.keys(require.cache)].join('\\n')));\n`,
    );
    // The first recall indexes the files (and may show progress); the one measured is the next.
    expect(runKioku(['memory', 'recall', '--query', '咖啡', '--role', ROLE], home.env).code).toBe(0);
    // stdin and stdout are pipes, as when an assistant runs the command.
    const run = spawnSync(
      process.execPath,
      ['--require', recorder, KIOKU_BIN, 'memory', 'recall', '--query', '頭髮', '--role', ROLE, '--json'],
      {
        env: home.env,
        input: '',
        encoding: 'utf8',
        timeout: 60_000,
        killSignal: 'SIGKILL',
      },
    );
    expect(run.stderr).toBe('');
    expect((JSON.parse(run.stdout) as RecallJson[]).map((m) => m.id)).toEqual(['rule', 'haircut']);
    const loaded = fs.readFileSync(dump, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule fs');
    expect(loaded.filter((name) => /^NativeModule (stream|internal\/readline\/interface|perf_hooks|net)$/.test(name))).toEqual([]);
    // better-sqlite3's JavaScript comes inside the bundle (sqlite-addon.ts), not file by file.
    expect(loaded.filter((name) => name.endsWith('better_sqlite3.node'))).toHaveLength(1);
    expect(loaded.filter((name) => /better-sqlite3[\\/]lib[\\/]/.test(name))).toEqual([]);
  });

  it("marks a temporary grant: a session grant as another session's, in the text and in --json (MEM-8, issue 12)", () => {
    const home = homeWithMemories({ ROLE_NAME: ROLE });
    writeMemory(home.memoryHome, 'important', {
      id: 'grant',
      summary: '這次可以直接 force push',
      memory_type: 'preference',
      expires: '本工作階段（session s-1，2026-03-10 授權）',
    });
    const text = runKioku(['memory', 'recall', '--query', 'force push'], home.env).stdout;
    expect(text).toContain('臨時授權，只在授權當時的那個工作階段有效，不適用於目前的工作階段');
    const [json] = runKiokuJson<Array<RecallJson & { grant?: unknown }>>(['memory', 'recall', '--query', 'force push'], home.env);
    expect(json!.grant).toEqual({ kind: 'session', expires: '本工作階段（session s-1，2026-03-10 授權）' });
  });

  it('uses ROLE_NAME, then .active, when --role is not given', () => {
    const home = homeWithMemories();
    expect(runKiokuJson<RecallJson[]>(['memory', 'recall', '--query', '咖啡'], { ...home.env, ROLE_NAME: ROLE })).toHaveLength(1);
    fs.writeFileSync(path.join(home.roleHome, '.active'), `${ROLE}\n`);
    expect(runKiokuJson<RecallJson[]>(['memory', 'recall', '--query', '咖啡'], home.env)).toHaveLength(1);
  });

  it('prints a readable list, or says that nothing matched', () => {
    const home = homeWithMemories({ ROLE_NAME: ROLE });
    const hit = runKioku(['memory', 'recall', '--query', '咖啡'], home.env);
    expect(hit.code).toBe(0);
    expect(hit.stdout).toMatch(/^ 1\. 喜歡喝黑咖啡\n    interest\/semantic  priority 3  \//);
    const miss = runKioku(['memory', 'recall', '--query', '紅茶'], home.env);
    expect(miss).toMatchObject({ code: 0, stdout: `No memories of ${ROLE} match "紅茶".\n` });
  });

  it('finds Traditional memories from a query typed in Simplified', () => {
    const home = homeWithMemories({ ROLE_NAME: ROLE });
    const converted = runKioku(['memory', 'recall', '--query', '喜欢喝', '--json'], home.env);
    expect(converted.code).toBe(0);
    expect(JSON.parse(converted.stdout).map((m: { summary: string }) => m.summary)).toContain('喜歡喝黑咖啡');
  });

  it('is bad usage (exit 2) without a role, with a bad --limit, or without --query', () => {
    const home = homeWithMemories();
    const noRole = runKioku(['memory', 'recall', '--query', '咖啡'], home.env);
    expect(noRole.code).toBe(2);
    expect(noRole.stderr).toMatch(/no role given/);
    expect(runKioku(['memory', 'recall', '--query', '咖啡', '--role', ROLE, '--limit', 'many'], home.env).code).toBe(2);
    expect(runKioku(['memory', 'recall', '--role', ROLE], home.env).code).toBe(2);
    expect(runKioku(['memory', 'recall', '--query', '咖啡', '--role', 'engineer01'], home.env).code).toBe(2);
  });

  it('--limit caps the answer', () => {
    const home = homeWithMemories();
    expect(runKiokuJson<RecallJson[]>(['memory', 'recall', '--query', '頭髮', '--role', ROLE, '--limit', '1'], home.env)).toHaveLength(1);
  });
});

describe('kioku memory reindex', () => {
  it('rebuilds every role with plain progress lines on a non-terminal and a final count line', () => {
    const home = homeWithMemories();
    writeMemory(home.memoryHome, 'inbox', { id: 'other', summary: '別的角色' }, 'HELPER01');
    fs.writeFileSync(path.join(home.memoryHome, ROLE, 'daily', 'broken.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0x0a]));
    const result = runKioku(['memory', 'reindex'], home.env);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^reindex: 100% \(5\/5\)$/m);
    expect(result.stderr).toMatch(/skipped .*broken\.md: the file is not UTF-8 text/);
    expect(result.stdout).toMatch(/^reindex: 2 roles, 4 memories indexed, 1 problem, \d+\.\d s\n$/);
    expect(fs.existsSync(path.join(home.memoryHome, '.kioku', 'index.sqlite'))).toBe(true);
  });

  it('--role rebuilds one role', () => {
    const home = homeWithMemories();
    const result = runKioku(['memory', 'reindex', '--role', ROLE], home.env);
    expect(result.stdout).toMatch(/^reindex: role ENGINEER01, 3 memories indexed, 0 problems, /);
  });
});
