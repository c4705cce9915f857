import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readRecentDialog } from '../main/core/integrations/assistants/transcripts/recent-dialog.js';
import { percentile, round, timeMs } from './bench-stats.js';
import { writeBenchResults } from './bench-results.js';

/**
 * CTX-6 on the SessionStart path: the recent dialog is read from the transcript's end, so any
 * size costs about the same (50 MB ≤ 750 ms; giving up on 20 MB of tool calls ≤ 500 ms).
 * Design notes: docs/design-notes.md, "bench/transcripts-bench.ts".
 */
const BIG_TARGET_MS = 750;
const NOISY_TARGET_MS = 500;

function dialogLines(): string {
  const lines: string[] = [];
  for (let i = 0; i < 3; i++) {
    lines.push(JSON.stringify({ type: 'user', message: { role: 'user', content: `第 ${i} 個問題：login 為什麼一直回 401？` } }));
    lines.push(
      JSON.stringify({
        type: 'assistant',
        message: {
          id: `m${i}`,
          role: 'assistant',
          content: [{ type: 'text', text: `第 ${i} 個回答：token 過期時沒有刷新，我已經改好並補上測試。` }],
        },
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

export async function runTranscriptsBench(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { runs: { type: 'string', default: '10' } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number (e.g. --runs 10)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-transcripts-bench-'));
  try {
    const big = path.join(dir, 'big.jsonl');
    const noise = JSON.stringify({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x'.repeat(1024 * 1024) }] },
    });
    const fd = fs.openSync(big, 'w');
    for (let i = 0; i < 50; i++) fs.writeSync(fd, `${noise}\n`);
    fs.writeSync(fd, dialogLines());
    fs.closeSync(fd);
    const noisy = path.join(dir, 'noisy.jsonl');
    const call = `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'y'.repeat(1000) } }] } })}\n`;
    fs.writeFileSync(
      noisy,
      `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'very old question' } })}\n${call.repeat(20_000)}`,
    );

    const cases = [
      {
        name: `last turns of a ${Math.round(fs.statSync(big).size / 1e6)} MB transcript`,
        targetMs: BIG_TARGET_MS,
        run: () => readRecentDialog('claude', big, { maxTurns: 8, maxChars: 4000 }),
        expect: 6,
      },
      {
        name: `no dialog in ${Math.round(fs.statSync(noisy).size / 1e6)} MB of tool calls (1 MiB budget)`,
        targetMs: NOISY_TARGET_MS,
        run: () => readRecentDialog('claude', noisy, { maxTurns: 8, maxChars: 4000, maxScanBytes: 1024 * 1024 }),
        expect: 0,
      },
    ];
    const results = cases.map(({ name, targetMs, run, expect }) => {
      const turns = run().length;
      const samples = Array.from({ length: runs }, () => timeMs(run));
      const medianMs = percentile(samples, 50);
      return {
        name,
        turns,
        medianMs: round(medianMs, 1),
        p95Ms: round(percentile(samples, 95), 1),
        targetMs,
        pass: medianMs <= targetMs && turns === expect,
      };
    });
    const width = Math.max(...results.map((r) => r.name.length));
    process.stdout.write(
      `\ntranscripts bench: readRecentDialog, ${runs} runs each, median (node ${process.version}, ${os.cpus().length} CPUs)\n`,
    );
    for (const r of results)
      process.stdout.write(
        `${r.pass ? 'PASS' : 'FAIL'}  ${r.name.padEnd(width)}  ${String(r.medianMs).padStart(7)} ms  p95 ${String(r.p95Ms).padStart(7)} ms  (≤ ${r.targetMs} ms; ${r.turns} turns)\n`,
      );
    const file = writeBenchResults('transcripts', { runs, results });
    process.stdout.write(`results: ${file}\n`);
    if (results.some((r) => !r.pass)) process.exitCode = 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
