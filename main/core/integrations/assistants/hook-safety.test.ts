import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'"`;]*?\sfrom\s+)?['"]([^'"]+)['"]/g;

/** Every package a module reaches through value imports (type-only imports cost nothing at run time). */
function packagesReachedFrom(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const [, typeOnly, spec] = match;
      if (typeOnly || !spec) continue;
      if (spec.startsWith('.')) stack.push(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  }
  return packages;
}

describe('hook hot path', () => {
  // The hook client imports these on every assistant event (ARCHITECTURE: node built-ins and
  // pure code only). scripts/check-imports.mjs enforces it from the client's side; this keeps
  // it true here even before a client imports them.
  it.each(['adapters.ts', 'transcripts/recent-dialog.ts'])('%s reaches only node: built-ins', (entry) => {
    const packages = [...packagesReachedFrom(path.join(HERE, entry))];
    expect(packages.filter((spec) => !spec.startsWith('node:'))).toEqual([]);
  });
});
