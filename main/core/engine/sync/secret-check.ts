import fs from 'node:fs';
import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { KiokuError } from '../../../../common/errors.js';
import { redact } from '../../platform/privacy/redact.js';
import { findSecretsSync } from '../../platform/privacy/redact-sync.js';
import { gitOk, splitZ } from './git.js';

/**
 * The check before every sync commit (PRIV-1): each added or changed text file is scanned with the
 * same redaction every write uses; a secret refuses the commit and names the file and what was
 * found, so nothing secret ever reaches a remote Kioku cannot see into. Kioku's own writes are
 * already redacted, so this catches hand edits and files other tools put in the homes.
 */
export interface SecretFinding {
  file: string;
  kinds: string[];
}

const MAX_SCANNED_BYTES = 2 * 1024 * 1024;

/**
 * Consolidation records (`<ID>/.sleep/…json`, `.sleep/lease.json`) are Kioku's own: their text
 * is inbox text that was redacted when it was captured, and their content hashes are 40+ hex
 * digits that the token rule would take for a secret.
 */
const OWN_RECORDS = /(^|\/)\.sleep\//;

export async function findSecretInText(text: string): Promise<string[] | undefined> {
  const ours = findSecretsSync(text);
  if (ours.length) return [...new Set(ours.map((r) => r.kind))];
  return (await redact(text)) !== text ? ['secret'] : undefined;
}

export async function scanStaged(treeDir: string, env: NodeJS.ProcessEnv): Promise<SecretFinding[]> {
  const names = splitZ(gitOk(treeDir, ['diff', '--cached', '--name-only', '--diff-filter=AM', '-z'], { env }));
  const findings: SecretFinding[] = [];
  for (const name of names) {
    if (OWN_RECORDS.test(name)) continue;
    const file = path.join(treeDir, name);
    let bytes: Buffer;
    try {
      if (fs.statSync(file).size > MAX_SCANNED_BYTES) continue;
      bytes = fs.readFileSync(file);
    } catch {
      continue;
    }
    if (!isUtf8(bytes) || bytes.includes(0)) continue; // gzip archives and images: written redacted
    const kinds = await findSecretInText(bytes.toString('utf8'));
    if (kinds) findings.push({ file, kinds });
  }
  return findings;
}

export function secretRefusal(findings: SecretFinding[]): KiokuError {
  const list = findings
    .slice(0, 5)
    .map((f) => `${f.file} (${f.kinds.join(', ')})`)
    .join('; ');
  return new KiokuError('REFUSED', `sync stopped before committing: ${findings.length} file(s) hold what looks like a secret: ${list}`, {
    path: findings[0]?.file,
    hint: 'remove the secret from the file (or replace it with [REDACTED]) and run `kioku sync now` again; nothing was committed or sent',
  });
}
