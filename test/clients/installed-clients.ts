import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'vitest';
import pins from './clients.json' with { type: 'json' };

/**
 * Where `scripts/clients-cache.mjs` installed each pinned client (test/clients/clients.json),
 * and what a test file does when one is missing: in CI (CI=true) a failing test that says why —
 * the suite never passes with a client it did not run; on a developer's machine a printed
 * reason and a skip, so a laptop without the ~900 MB cache can still run the rest.
 */
export type ClientName = keyof typeof pins;

export function clientBin(name: ClientName, env: NodeJS.ProcessEnv = process.env): string {
  const pin = pins[name];
  const cache = env.KIOKU_CLIENTS_CACHE || path.join(os.homedir(), '.cache', 'kioku-clients');
  return path.join(cache, `${pin.package.replace('/', '+')}@${pin.version}`, 'node_modules', '.bin', pin.bin);
}

export function pinned(name: ClientName): string {
  return `${pins[name].package}@${pins[name].version}`;
}

/** `describe` for one client's tests, run only when the client is installed (see above). */
export function describeClient(name: ClientName, title: string, body: (bin: string) => void): void {
  const bin = clientBin(name);
  if (fs.existsSync(bin)) {
    describe(title, () => body(bin));
    return;
  }
  // The runner sets the installer's own words (npm's exit, a timeout) when it tried and failed.
  const why = process.env[`KIOKU_CLIENT_MISSING_${name.toUpperCase()}`] ?? `not installed at ${bin}`;
  const reason = `${pinned(name)}: ${why} — \`npm run test:clients\` installs it into the cache (KIOKU_CLIENTS_CACHE)`;
  if (process.env.CI) {
    describe(title, () => {
      it(`needs ${pinned(name)}`, () => {
        throw new Error(reason);
      });
    });
    return;
  }
  process.stdout.write(`test:clients: skipping "${title}": ${reason}\n`);
  describe.skip(`${title} (skipped: ${reason})`, () => body(bin));
}
