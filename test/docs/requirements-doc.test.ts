// Every requirement ID cited in the code must be explained in docs/requirements.md (issue 15).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['main', 'common', 'hooks', 'renderer/src', 'preload', 'bench', 'scripts', 'test', 'e2e', 'docs'];
const SKIP_DIRS = new Set(['node_modules', 'dist', 'screenshots']);
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md|sh|css|html|ya?ml)$/;
const ID = /\b(?:ROLE|HOOK|CALL|LOCK|CTX|CAP|MEM|SLEEP|FORGET|BRIEF|PRIV|OPS|PM|DSH|APP|X)-[A-Z0-9]+\b/g;
// Tokens that look like IDs but are not requirements.
const NOT_IDS = new Set(['X-GNOME']); // the freedesktop key X-GNOME-Autostart-enabled
const DOC = 'docs/requirements.md';

function* files(dir: string): Generator<string> {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* files(full);
    } else if (TEXT.test(entry.name) && full !== path.normalize(DOC)) {
      yield full;
    }
  }
}

/** ID → the first file that cites it. */
function citedIds(roots: string[]): Map<string, string> {
  const cited = new Map<string, string>();
  for (const root of roots) {
    for (const file of files(root)) {
      for (const id of fs.readFileSync(file, 'utf8').match(ID) ?? []) {
        if (!NOT_IDS.has(id) && !cited.has(id)) cited.set(id, file);
      }
    }
  }
  return cited;
}

function documentedIds(doc: string): Set<string> {
  return new Set([...doc.matchAll(/^### ([A-Z]+-[A-Z0-9]+) — \S/gm)].map((m) => m[1]!));
}

function undocumented(cited: Map<string, string>, doc: string): string[] {
  const documented = documentedIds(doc);
  return [...cited].filter(([id]) => !documented.has(id)).map(([id, file]) => `${id} (cited in ${file})`);
}

describe('docs/requirements.md', () => {
  const doc = fs.readFileSync(DOC, 'utf8');
  const cited = citedIds(ROOTS);

  it('explains every requirement ID the repository cites', () => {
    expect(cited.size).toBeGreaterThan(50);
    expect(undocumented(cited, doc)).toEqual([]);
  });

  it('fails, naming the ID and a file, when an entry is missing', () => {
    const [id, file] = [...cited].find(([key]) => key === 'CTX-7')!;
    const without = doc.replace(/^### CTX-7 — .*$/m, '');
    expect(undocumented(cited, without)).toEqual([`${id} (cited in ${file})`]);
  });

  it('gives each entry an explanation, not just a heading', () => {
    const empty = [...doc.matchAll(/^### ([A-Z]+-[A-Z0-9]+) — .*\n(?=\n|###|##)/gm)].map((m) => m[1]);
    expect(empty).toEqual([]);
  });
});
