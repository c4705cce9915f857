#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/. Kept in plain JS so that `npx kioku` and the
// installed app can start it without TypeScript.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const entry = path.join(root, 'dist', 'main', 'cli', 'kioku.js');
if (!existsSync(entry)) {
  process.stderr.write(`kioku: ${entry} is missing\n  → run \`npm run build\` in ${root} first\n`);
  process.exit(1);
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv);
