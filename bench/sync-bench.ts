import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../main/core/platform/config/config.js';
import { writeFileAtomicSync } from '../main/core/platform/fs/atomic-write.js';
import { fileNameForId, serializeMemory } from '../main/core/store/memory/memory-file.js';
import { listMemoryFiles, readMemoryFile } from '../main/core/store/memory/memory-layout.js';
import { syncInit } from '../main/core/engine/sync/sync-init.js';
import { syncNow } from '../main/core/engine/sync/sync-now.js';
import { round } from './bench-stats.js';
import { generateMemories } from './generate-memories.js';
import { writeBenchResults } from './bench-results.js';
import { benchHomeEnv } from './bench-home-env.js';

/**
 * `npm run bench -- sync`: time of `kioku sync now` with 10,000 memories and 100 new ones on
 * each side, two homes sharing a bare repository on this disk.
 * Design notes: docs/design-notes.md, "bench/sync-bench.ts".
 */
const ROLE = 'BENCH01';
const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'kioku.js');

function machineEnv(root: string, name: string): NodeJS.ProcessEnv {
  const home = path.join(root, name);
  fs.mkdirSync(path.join(home, 'roles'), { recursive: true });
  fs.mkdirSync(path.join(home, 'memory'), { recursive: true });
  return benchHomeEnv(home, {
    KIOKU_MACHINE_NAME: name,
    KIOKU_NOW: '2026-12-01T21:00:00+08:00',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
  });
}

/** `count` new memories with ids no other machine makes (the name is in them). */
function addMemories(env: NodeJS.ProcessEnv, machine: string, count: number): void {
  const template = readMemoryFile(
    listMemoryFiles(env.ROLE_MEMORY_HOME!, ROLE).find((ref) => ref.category === 'daily')!,
    ROLE,
  );
  for (let i = 0; i < count; i++) {
    const id = `20261201-${machine}-${String(i).padStart(5, '0')}`;
    const { role: _role, path: _path, ...memory } = template;
    writeFileAtomicSync(
      path.join(env.ROLE_MEMORY_HOME!, ROLE, 'daily', fileNameForId(id)),
      serializeMemory({ ...memory, id, summary: `${machine} 的新記憶 ${i}`, body: `${machine} 在第 ${i} 次對話記下的。` }),
      { durable: false },
    );
  }
}

async function timed<T>(run: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

export async function runSyncBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      memories: { type: 'string', default: '10000' },
      new: { type: 'string', default: '100' },
      keep: { type: 'boolean', default: false },
    },
  });
  const total = Number(values.memories);
  const fresh = Number(values.new);
  if (!Number.isInteger(total) || total < 1 || !Number.isInteger(fresh) || fresh < 1)
    throw new Error('--memories and --new take whole numbers (e.g. --memories 10000 --new 100)');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-sync-bench-'));
  try {
    const remote = path.join(root, 'remote.git');
    spawnSync('git', ['init', '-q', '--bare', remote], {
      timeout: 60_000,
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });
    const desk = machineEnv(root, 'desk');
    const laptop = machineEnv(root, 'laptop');
    process.stderr.write(`sync bench: generating ${total} memories…\n`);
    generateMemories(desk.ROLE_MEMORY_HOME!, ROLE, total);
    const approve = async () => true;
    process.stderr.write('sync bench: first sync of the desk (init: commit, secret check of every file, push)…\n');
    const initDesk = await timed(() => syncInit(loadConfig(desk, { stored: {} }), { remote, approve }));
    process.stderr.write('sync bench: the laptop joins (init: fetch and check out every file, index them)…\n');
    const initLaptop = await timed(() => syncInit(loadConfig(laptop, { stored: {} }), { remote, approve }));

    addMemories(desk, 'desk', fresh);
    addMemories(laptop, 'laptop', fresh);
    const deskSync = await timed(() => syncNow(loadConfig(desk, { stored: {} })));
    process.stderr.write(`sync bench: timing the laptop's \`kioku sync now\` (${fresh} new on each side)…\n`);
    const cli = await timed(() =>
      spawnSync(process.execPath, [bin, 'sync', 'now', '--json'], { env: laptop, encoding: 'utf8', timeout: 600_000 }),
    );
    if (cli.value.status !== 0) throw new Error(`kioku sync now failed: ${cli.value.stderr}`);
    const run = JSON.parse(cli.value.stdout) as { outcome: string; trees: { tree: string; changed: number; conflicts: string[] }[] };

    // The same again in-process (no process start), the desk taking the laptop's 100.
    addMemories(desk, 'desk2', fresh);
    addMemories(laptop, 'laptop2', fresh);
    await syncNow(loadConfig(desk, { stored: {} }));
    const inProcess = await timed(() => syncNow(loadConfig(laptop, { stored: {} })));
    await syncNow(loadConfig(desk, { stored: {} }));

    const counts = [desk, laptop].map((env) => listMemoryFiles(env.ROLE_MEMORY_HOME!, ROLE).length);
    const expected = total + 4 * fresh;
    const ok = run.outcome === 'ok' && counts.every((n) => n === expected);
    const rows: Array<[string, string]> = [
      ['desk: first sync (init, ' + total + ' memories)', `${round(initDesk.ms / 1000, 1)} s`],
      ['laptop: joins (init, receives ' + total + ')', `${round(initLaptop.ms / 1000, 1)} s`],
      [`desk: sync now (${fresh} new, nothing to merge)`, `${round(deskSync.ms / 1000, 2)} s`],
      [`laptop: \`kioku sync now\` (${fresh} new each side, process)`, `${round(cli.ms / 1000, 2)} s`],
      [`laptop: syncNow in-process (${fresh} new each side)`, `${round(inProcess.ms / 1000, 2)} s`],
      ['memories on desk / laptop (expected)', `${counts.join(' / ')} (${expected})`],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    process.stdout.write(
      `\nsync bench: ${total} memories, ${fresh} new on each side (node ${process.version}, git ${spawnSync('git', ['--version'], { encoding: 'utf8' }).stdout.trim()}, ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')})\n`,
    );
    process.stdout.write(
      `${rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}\n${ok ? 'PASS' : 'FAIL'}  every memory on both machines exactly once\n`,
    );
    const file = writeBenchResults('sync', {
      memories: total,
      newEachSide: fresh,
      initDeskMs: round(initDesk.ms, 0),
      initLaptopMs: round(initLaptop.ms, 0),
      deskSyncMs: round(deskSync.ms, 0),
      laptopSyncCliMs: round(cli.ms, 0),
      laptopSyncInProcessMs: round(inProcess.ms, 0),
      counts,
      expected,
      ok,
    });
    process.stdout.write(`results: ${file}\n`);
    if (!ok) process.exitCode = 1;
  } finally {
    if (values.keep) process.stderr.write(`sync bench: kept ${root}\n`);
    else fs.rmSync(root, { recursive: true, force: true });
  }
}
