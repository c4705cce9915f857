import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PHASES, summarize, type HookResult, type Phase, type Sample, type Stats } from './hooks-bench-report.js';

/**
 * The floors under the hooks bench's targets (issue 17): what the least a Node hook can do costs
 * against `node -e 0`, measured in the same rounds. A hook must read its stdin; one that asks the
 * daemon must also make one round trip on a Unix socket. These programs do only that — no
 * settings, no logging, an echo server that answers at once — so a hook's time above its floor is
 * Kioku's own. The round trip is made the public way, through node:net: since session 20 Kioku's
 * clients use libuv's pipe handle itself (raw-pipe-connection.ts), about 4 ms cheaper, so a hook
 * may now come in under this floor; it stays as the cost of the public API.
 */
export const FLOOR_STDIN = 'floor: read stdin';
export const FLOOR_SOCKET = 'floor: read stdin + node:net round trip';

export interface HookFloors {
  /** Each floor's name and the arguments `node` runs it with. */
  programs: Array<[name: string, args: string[]]>;
  close(): Promise<void>;
}

/** Reads stdin whole (one synchronous read loop, as cheap as Node offers), answers nothing. */
const STDIN_ONLY = `'use strict';
require('node:fs').readFileSync(0);
`;

/** Reads stdin, then sends it as one line on the socket and prints the one-line reply. */
const SOCKET_ROUND_TRIP = `'use strict';
const input = require('node:fs').readFileSync(0, 'utf8');
const socket = require('node:net').createConnection(process.argv[2]);
socket.on('connect', () => socket.write(JSON.stringify({ input }) + '\\n'));
let reply = '';
socket.on('data', (chunk) => {
  reply += chunk;
  if (reply.includes('\\n')) {
    process.stdout.write(reply);
    socket.destroy();
  }
});
`;

export async function startHookFloors(dir: string): Promise<HookFloors> {
  const stdinOnly = path.join(dir, 'floor-stdin.cjs');
  const roundTrip = path.join(dir, 'floor-socket.cjs');
  fs.writeFileSync(stdinOnly, STDIN_ONLY);
  fs.writeFileSync(roundTrip, SOCKET_ROUND_TRIP);
  const socketPath = path.join(dir, 'floor.sock');
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      if (chunk.includes(10)) socket.end('{"ok":true}\n');
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, () => resolve()));
  return {
    programs: [
      [FLOOR_STDIN, [stdinOnly]],
      [FLOOR_SOCKET, [roundTrip, socketPath]],
    ],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Each floor program's rows, every phase divided by that phase's `node -e 0` (`rounds`: its run
 * of each round, for the per-round ratios); a run that failed or wrote to stderr is bad.
 */
export function floorRows(
  samples: ReadonlyMap<string, Record<Phase, Sample[]>>,
  baselines: Record<Phase, Stats>,
  rounds?: Record<Phase, Sample[]>,
): HookResult[] {
  return [...samples].map(([name, runs]) => {
    const row = { name } as HookResult;
    for (const phase of PHASES) {
      const bad = runs[phase].filter((run) => run.code !== 0 || run.stderr).length;
      row[phase] = summarize(runs[phase], baselines[phase].medianMs, bad, rounds?.[phase]);
    }
    return row;
  });
}
