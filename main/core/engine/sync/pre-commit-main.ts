import { scanStaged, secretRefusal } from './secret-check.js';

/**
 * The `pre-commit` hook `kioku sync init` puts in each home's repository: a commit made by hand
 * (`git commit` in ~/.memory) gets the same secret check as Kioku's own sync commits. Exit 1
 * names the file; git then commits nothing.
 */
const findings = await scanStaged(process.cwd(), process.env);
if (findings.length) {
  const error = secretRefusal(findings);
  process.stderr.write(`kioku: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}`);
  process.exit(1);
}
