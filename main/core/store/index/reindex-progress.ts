import cliProgress from 'cli-progress';
import type { ProgressCallback } from './index-sync.js';

/**
 * Progress of a reindex on a stream (stderr): a live bar on a terminal; elsewhere (CI logs,
 * pipes, a test) a few plain lines, `reindex: 40% (40000/100000)`, one per fifth of the work.
 */
export interface ReindexProgress {
  update: ProgressCallback;
  stop(): void;
}

const PLAIN_STEPS = 5;

export function createReindexProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }, label = 'reindex'): ReindexProgress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { stream, format: `${label} [{bar}] {percentage}% | {value}/{total} | ETA {eta_formatted}`, hideCursor: true, fps: 10 },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(done, total) {
        if (!started) {
          bar.start(total, done);
          started = true;
        } else bar.update(done);
      },
      stop: () => {
        if (started) bar.stop();
      },
    };
  }
  let lastStep = 0;
  return {
    update(done, total) {
      if (total === 0) return;
      const step = Math.floor((done / total) * PLAIN_STEPS);
      if (step <= lastStep) return;
      lastStep = step;
      stream.write(`${label}: ${Math.round((done / total) * 100)}% (${done}/${total})\n`);
    },
    stop() {},
  };
}
