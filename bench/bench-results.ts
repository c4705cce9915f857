import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatCompactDateTime } from '../main/core/platform/config/clock.js';
import { round } from './bench-stats.js';

/**
 * Where every bench writes its figures: `bench/results/<bench>-<yyyyMMdd-HHmmss>.json` in the
 * repository (gitignored), with the machine it ran on, so a closing note can cite the file.
 */

/** The repository (for bench/results/), from dist/bench/ or from a bundle under .tmp/. */
export function benchRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'bench'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

export function machineInfo() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    platform: process.platform,
    loadavg: os.loadavg().map((n) => round(n)),
  };
}

/** Write one run's figures; returns the file's path. */
export function writeBenchResults(bench: string, figures: Record<string, unknown>, root: string = benchRoot()): string {
  const dir = path.join(root, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${bench}-${formatCompactDateTime(new Date())}.json`);
  fs.writeFileSync(file, `${JSON.stringify({ bench, date: new Date().toISOString(), machine: machineInfo(), ...figures }, null, 2)}\n`);
  return file;
}
