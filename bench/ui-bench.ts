import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { loadConfig } from '../main/core/platform/config/config.js';
import { createBenchRole } from './bench-role.js';
import { benchRoot, writeBenchResults } from './bench-results.js';
import { frameFigures, scrollRun, type PageWindow } from './frame-stats.js';
import { generateMemories } from './generate-memories.js';
import { benchHomeEnv } from './bench-home-env.js';

/**
 * `npm run bench -- ui`: does the memory timeline scroll smoothly at 10,000 memories? Frame
 * times of the real `kioku daemon --web` in Chromium, scrolled one step per animation frame.
 * Design notes: docs/design-notes.md, "bench/ui-bench.ts".
 */
const CHROMIUM = process.env.KIOKU_E2E_CHROMIUM ?? '/usr/bin/chromium';
const DEADLINE_MS = 5 * 60_000;
const ROLE = 'BENCH01';

function startDaemon(cli: string, env: NodeJS.ProcessEnv): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, [cli, 'daemon', '--web', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)$/m.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`kioku daemon --web exited (${code ?? signal}) before printing its URL:\n${stderr}`)),
    );
  });
  return { child, url };
}

export async function runUiBench(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      memories: { type: 'string', default: '10000' },
      frames: { type: 'string', default: '600' },
      keep: { type: 'boolean', default: false },
    },
  });
  const memories = Number(values.memories);
  const frames = Number(values.frames);
  const root = benchRoot();
  const cli = path.join(root, 'bin', 'kioku.js');
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM} (install Debian's chromium package, or set KIOKU_E2E_CHROMIUM)`);

  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-ui-bench-'));
  const env: NodeJS.ProcessEnv = benchHomeEnv(home, {
    // No consolidation behind the bench's back.
    KIOKU_NO_SCHEDULE: '1',
  });
  let daemon: ChildProcess | undefined;
  let browser: Browser | undefined;
  const cleanUp = async () => {
    await browser?.close().catch(() => undefined);
    if (daemon && daemon.exitCode === null && daemon.signalCode === null) {
      const exited = new Promise((resolve) => daemon!.once('exit', resolve));
      daemon.kill('SIGTERM');
      const force = setTimeout(() => daemon?.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    }
    if (!values.keep) fs.rmSync(home, { recursive: true, force: true });
  };
  const deadline = setTimeout(() => {
    process.stderr.write(`ui bench: not done within ${DEADLINE_MS / 60_000} min; stopping\n`);
    daemon?.kill('SIGKILL');
    void cleanUp().finally(() => process.exit(1));
  }, DEADLINE_MS);
  try {
    const config = loadConfig(env);
    fs.mkdirSync(config.paths.roleHome, { recursive: true });
    createBenchRole(config, { id: ROLE, name: '小豹', emoji: '🐆', nature: '冷靜可靠的工程夥伴。' });
    process.stderr.write(`ui bench: generating ${memories} memories…\n`);
    generateMemories(config.paths.memoryHome, ROLE, memories);

    process.stderr.write('ui bench: starting kioku daemon --web…\n');
    const started = startDaemon(cli, env);
    daemon = started.child;
    const url = await started.url;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, locale: 'zh-TW', timezoneId: 'Asia/Taipei' });
    await page.goto(`${url}#/timeline`);
    await page.locator('.memory-row:not(.memory-row-placeholder)').first().waitFor({ timeout: 120_000 });
    const count = await page.locator('.timeline-count').innerText();
    if (!count.replace(/,/g, '').includes(String(memories))) throw new Error(`the timeline shows "${count}", not ${memories} memories`);

    await scrollRun(page, 30, 60); // warm-up: first layout of the rows, fonts, the first pages
    const phases = [
      { name: `wheel-speed scroll (30 px/frame, ${frames} frames)`, run: await scrollRun(page, 30, frames) },
      {
        name: `fling (300 px/frame, ${Math.round(frames / 2)} frames, past the loaded pages)`,
        run: await scrollRun(page, 300, Math.round(frames / 2)),
      },
    ];
    const rendered = await page.locator('.memory-row:not(.memory-row-placeholder)').count();
    const scrolledTo = await page.evaluate(() => (globalThis as unknown as PageWindow).scrollY);
    // The rows the fling outran do arrive (a list that never fills in would scroll "smoothly" too).
    await page.waitForFunction(
      () => (globalThis as unknown as PageWindow).document.querySelectorAll('.memory-row-placeholder').length === 0,
      undefined,
      { timeout: 60_000 },
    );

    const figures = phases.map((phase) => ({ phase: phase.name, ...frameFigures(phase.run) }));
    const lines = [
      `ui bench: the timeline of ${memories.toLocaleString('en')} memories in Chromium (${CHROMIUM}, --disable-gpu), 1280×860; ${rendered} rows in the DOM, scrolled to ${Math.round(scrolledTo).toLocaleString('en')} px`,
      ...figures.map(
        (f) =>
          `  ${f.phase}: frame time median ${f.medianMs} ms, p95 ${f.p95Ms} ms, max ${f.maxMs} ms; over 16.7 ms ${f.over16_7}/${f.frames}, over 33 ms ${f.over33}/${f.frames}; ` +
          `long tasks ${f.longTasks} (longest ${f.longestTaskMs} ms); main thread ${f.mainThreadMsPerFrame} ms/frame (layout ${f.layoutMs}, style ${f.styleMs}, script ${f.scriptMs} ms in all)`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    const file = writeBenchResults('ui', { memories, frames, rendered, figures });
    process.stdout.write(`ui bench: figures in ${path.relative(root, file)}\n`);
  } finally {
    clearTimeout(deadline);
    await cleanUp();
  }
}
