// `npm run test:e2e`: Playwright specs under e2e/. Until the UI exists (issue #5) there are no
// specs; say so plainly instead of pretending a run happened.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const specs = readdirSync(path.join(root, 'e2e')).filter((name) => name.endsWith('.spec.ts'));
if (specs.length === 0) {
  process.stdout.write('test:e2e: no e2e specs yet (the UI and its Playwright tests come with issue #5); nothing run.\n');
  process.exit(0);
}
const result = spawnSync(path.join(root, 'node_modules', '.bin', 'vitest'), ['run', '--config', 'e2e/vitest.e2e.config.ts'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
