// `npm install` (prepare) sets up the pre-commit hook (simple-git-hooks → lint-staged: prettier,
// eslint and the import check on staged files). Outside a git checkout (a tarball, CI with
// SKIP_GIT_HOOKS=1) there is nothing to hook, and an install must never fail because of it.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
if (process.env.SKIP_GIT_HOOKS === '1' || !existsSync(path.join(root, '.git'))) process.exit(0);
const result = spawnSync(path.join(root, 'node_modules', '.bin', 'simple-git-hooks'), [], { cwd: root, stdio: 'inherit', timeout: 30_000 });
if (result.status !== 0)
  process.stderr.write('kioku: the pre-commit hook was not installed (simple-git-hooks failed); run `npx simple-git-hooks` to retry.\n');
