// `npm run test:e2e` (the last step of `npm test`): the Playwright specs under e2e/ — the UI in
// Debian's Chromium against a real `kioku daemon --web` on temp homes, and the Electron app where
// its binary exists. They need the built UI (dist/renderer); `npm test` builds first (pretest).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const specs = readdirSync(path.join(root, 'e2e')).filter((name) => name.endsWith('.spec.ts'));
if (specs.length === 0) {
  process.stdout.write('test:e2e: no e2e specs found under e2e/; nothing run.\n');
  process.exit(0);
}
if (!existsSync(path.join(root, 'dist', 'renderer', 'index.html'))) {
  process.stderr.write(
    'test:e2e: dist/renderer/index.html is missing; run `npm run build` first (or `npx vite build` for the UI alone).\n',
  );
  process.exit(1);
}
const result = spawnSync(
  path.join(root, 'node_modules', '.bin', 'vitest'),
  ['run', '--config', 'e2e/vitest.e2e.config.ts', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
