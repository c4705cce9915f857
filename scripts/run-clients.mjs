// `npm run test:clients` (run by .ci/run after `npm test`): the real assistants against Kioku.
// Installs the pinned Claude Code, Codex, Gemini CLI and MCP Inspector into the cache when
// missing (scripts/clients-cache.mjs), then runs test/clients/*.clients.test.ts. A client that
// cannot be installed is reported here and again by its test file, which fails in CI (CI=true)
// and skips with the reason elsewhere: the suite never passes without having run a client.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLIENTS, clientBin, ensureClient } from './clients-cache.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
if (!existsSync(path.join(root, 'dist', 'hooks', 'kioku-hook.js')) || !existsSync(path.join(root, 'dist', 'main', 'cli', 'kioku.js'))) {
  process.stderr.write('test:clients: the built hook client or CLI is missing; run `npm run build` first.\n');
  process.exit(1);
}

const started = Date.now();
const env = { ...process.env };
for (const name of Object.keys(CLIENTS)) {
  const why = ensureClient(name);
  if (why) {
    process.stderr.write(`test:clients: ${why}${process.env.CI ? '; its tests will fail (CI)' : '; its tests are skipped'}\n`);
    env[`KIOKU_CLIENT_MISSING_${name.toUpperCase()}`] = why;
  } else process.stdout.write(`test:clients: ${name} ${CLIENTS[name].version}: ${clientBin(name)}\n`);
}
const result = spawnSync(
  path.join(root, 'node_modules', '.bin', 'vitest'),
  ['run', '--config', 'test/clients/vitest.clients.config.ts', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env },
);
process.stdout.write(`test:clients: ${Math.round((Date.now() - started) / 1000)} s in all\n`);
process.exit(result.status ?? 1);
