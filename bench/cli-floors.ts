import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startHookFloors, FLOOR_SOCKET } from './hook-floors.js';

/**
 * The floors under the CLI bench's recall targets (issue 17), measured in the same rounds as the
 * commands: what the least a Node program answering `kioku memory recall` must do costs against
 * `node -e 0`. With the daemon up it makes one round trip on a Unix socket (hook-floors.ts, an
 * echo server that answers at once); without it, it loads SQLite's addon and opens the index.
 * Neither reads a setting, ranks or prints: a recall's time above its floor is Kioku's own, and
 * a target below the floor is one no Node client can meet.
 */
export const FLOOR_OPEN_INDEX = 'floor: load SQLite and open the index';
export { FLOOR_SOCKET };

/** Loads better-sqlite3 and opens the index read-only; reads its header and schema (printing how many objects it has), nothing else. */
const OPEN_INDEX = `'use strict';
const Database = require(process.argv[2]);
const db = new Database(process.argv[3], { readonly: true, fileMustExist: true });
process.stdout.write(String(db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get()));
db.close();
`;

export interface CliFloors {
  /** [row name, node arguments] for each phase. */
  down: Array<[name: string, args: string[]]>;
  up: Array<[name: string, args: string[]]>;
  close(): Promise<void>;
}

export async function startCliFloors(dir: string, indexFile: string, buildRoot: string): Promise<CliFloors> {
  const openIndex = path.join(dir, 'floor-open-index.cjs');
  fs.writeFileSync(openIndex, OPEN_INDEX);
  // The same better-sqlite3 the recall loads, resolved from the build being measured.
  const sqlite = createRequire(path.join(buildRoot, 'package.json')).resolve('better-sqlite3');
  const hookFloors = await startHookFloors(dir);
  const socket = hookFloors.programs.find(([name]) => name === FLOOR_SOCKET)!;
  return {
    down: [[FLOOR_OPEN_INDEX, [openIndex, sqlite, indexFile]]],
    up: [socket],
    close: () => hookFloors.close(),
  };
}
