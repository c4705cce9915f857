import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatLocalIso } from '../../main/core/platform/config/clock.js';
import { killAndWait, runNode, waitFor, type ChildRun } from '../ipc/daemon-kit.js';
import { requestStatus } from '../../main/core/platform/ipc/ipc-client.js';
import { runKioku } from '../helpers/run-cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { ROLE, writeMemory } from './recall-test-fixtures.js';

/**
 * `kioku memory recall` asks the daemon when one runs (issue 17) and recalls from the index
 * itself otherwise: the same sequence of recalls on the same files must print the same bytes
 * both ways and leave the same counts in the files once the queued hits are applied (by the
 * daemon when recalls pause or it exits, by `memory reindex` without it). Which way each run went is read from its
 * KIOKU_TRACE marks (recall-actions.ts), so a silent fallback cannot pass for the daemon.
 */
const NOW = new Date(2026, 2, 10, 12, 0, 0);
const homes: TempHome[] = [];
let daemon: ChildRun | undefined;
afterEach(async () => {
  if (daemon) await killAndWait(daemon, 'SIGTERM');
  daemon = undefined;
  homes.splice(0).forEach((home) => home.cleanup());
});

/** A home with the same memories, indexed the same way (a copy would change the files' times, and the index with them). */
function homeWithMemories(): TempHome {
  const home = makeTempHome({ KIOKU_NOW: formatLocalIso(NOW), ROLE_NAME: ROLE });
  homes.push(home);
  writeMemory(home.memoryHome, 'daily', { id: 'haircut', summary: '近況', body: '使用者昨天去剪了頭髮，覺得很清爽', tags: ['生活'] });
  writeMemory(home.memoryHome, 'important', { id: 'rule', summary: '提到頭髮時不要評論外表', memory_type: 'rule', priority: 4 });
  writeMemory(home.memoryHome, 'important', { id: 'deploy', summary: '部署前先跑測試', memory_type: 'rule', hits: 3, strength: 96 });
  writeMemory(home.memoryHome, 'interest', { id: 'coffee', summary: '喜歡喝黑咖啡' });
  writeMemory(home.memoryHome, 'important', {
    id: 'grant',
    summary: '這次可以直接 force push',
    memory_type: 'preference',
    expires: '本工作階段（session s-1，2026-03-10 授權）',
  });
  // A file without `created` is dated by its mtime when rewritten: the same in both homes.
  for (const file of Object.keys(memoryFiles(home.memoryHome))) fs.utimesSync(path.join(home.memoryHome, file), NOW, NOW);
  expect(runKioku(['memory', 'reindex'], home.env).code).toBe(0);
  return home;
}

const RECALLS: string[][] = [
  ['--query', '頭髮'],
  ['--query', '頭髮', '--json'],
  ['--query', '头发', '--json'],
  ['--query', '部署', '--limit', '1'],
  ['--query', '咖啡'],
  ['--query', '紅茶'],
  ['--query', 'force push', '--json'],
  ['--query', '頭髮', '--json'],
];

/** Every memory file's text, by path under the memory home (the index is left out). */
function memoryFiles(memoryHome: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(path.join(memoryHome, ROLE), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.md')) {
      const file = path.join(entry.parentPath, entry.name);
      out[path.relative(memoryHome, file)] = fs.readFileSync(file, 'utf8');
    }
  }
  return out;
}

/** Each recall's exit code and output (the home's folder written as <home>), and which way it went. */
function runAll(home: TempHome) {
  const trace = path.join(home.root, 'trace.jsonl');
  return RECALLS.map((args) => {
    fs.rmSync(trace, { force: true });
    const { code, stdout, stderr } = runKioku(['memory', 'recall', ...args], { ...home.env, KIOKU_TRACE: trace });
    const traced = JSON.parse(fs.readFileSync(trace, 'utf8').trim()) as { marks: Record<string, number>; spans?: Record<string, number> };
    const marks = traced.marks;
    // Either way the fast path (recall-fast.ts) answers, without the command parser.
    const fast = 'fast-loaded' in marks && !('cli-loaded' in marks);
    const way =
      'direct-loaded' in marks
        ? fast
          ? 'direct, fast'
          : 'direct'
        : 'daemon-asked' in marks
          ? 'fast-loaded' in marks && !('cli-loaded' in marks)
            ? 'daemon, fast'
            : 'daemon'
          : 'unknown';
    // The daemon's own time over the request (its reply's handledMs), apart from the socket's.
    const daemonMs = traced.spans?.daemon;
    return { args, code, stdout: stdout.replaceAll(home.root, '<home>'), stderr: stderr.replaceAll(home.root, '<home>'), way, daemonMs };
  });
}

describe('kioku memory recall through the daemon and without it', () => {
  it('prints the same bytes and writes the same counts, recall after recall', async () => {
    const [served, alone] = [homeWithMemories(), homeWithMemories()];
    const before = memoryFiles(alone.memoryHome);
    daemon = runNode('test/ipc/fixtures/kioku-cli.ts', ['daemon'], served.env);
    const paths = served.config().paths;
    await waitFor(async () => {
      const status = await requestStatus(paths, 1_000);
      return status.ok && status.reply.status.ready;
    }, 'the daemon to be ready');
    const viaDaemon = runAll(served);
    await killAndWait(daemon, 'SIGTERM'); // it writes back what is pending before it exits
    daemon = undefined;
    const direct = runAll(alone);
    // Without the daemon the hits wait in the queue (replay-queue.ts) until something applies it.
    expect(memoryFiles(alone.memoryHome)).toEqual(before);
    expect(runKioku(['memory', 'reindex'], alone.env).code).toBe(0);

    expect(viaDaemon.map((run) => run.way)).toEqual(RECALLS.map(() => 'daemon, fast'));
    // With the daemon's socket there, bin/kioku.js loads the fast path (recall-launcher.ts) with
    // its code cache, written by the first recall; without it, the index bundle alone.
    const cachedBundles = (home: TempHome) =>
      fs.readdirSync(path.join(home.config().paths.stateDir, 'cache')).filter((name) => name.endsWith('.v8cache'));
    expect(cachedBundles(served).filter((name) => name.startsWith('recall-fast-'))).toHaveLength(1);
    expect(cachedBundles(alone).filter((name) => name.startsWith('recall-fast-'))).toEqual([]);
    expect(direct.map((run) => run.way)).toEqual(RECALLS.map(() => 'direct, fast'));
    expect(viaDaemon.every((run) => typeof run.daemonMs === 'number' && run.daemonMs >= 0)).toBe(true);
    expect(direct.map((run) => run.daemonMs)).toEqual(RECALLS.map(() => undefined));
    for (let i = 0; i < RECALLS.length; i++) {
      const { way: _daemonWay, daemonMs: _daemonMs, ...fromDaemon } = viaDaemon[i]!;
      const { way: _directWay, daemonMs: _none, ...fromIndex } = direct[i]!;
      expect(fromDaemon).toEqual(fromIndex);
    }
    expect(direct.some((run) => run.stdout.includes('"hits": 2'))).toBe(true); // the counts moved between recalls
    expect(memoryFiles(served.memoryHome)).toEqual(memoryFiles(alone.memoryHome));
    expect(memoryFiles(alone.memoryHome)).not.toEqual(before);
  });
});
