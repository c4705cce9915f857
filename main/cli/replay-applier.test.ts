import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APPLIER_FILE, replayApplierScript, startReplayApplier } from './replay-applier.js';

const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function tree(files: string[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-applier-'));
  made.push(root);
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), '');
  }
  return root;
}

describe('the replay applier a long queue starts (issue 17)', () => {
  it("is the build's own bundle, found from the bundle beside it or from the compiled commands", () => {
    const root = tree([`dist/cli-fast/${APPLIER_FILE}`, 'dist/main/cli/commands/recall-direct.js']);
    const script = path.join(root, 'dist', 'cli-fast', APPLIER_FILE);
    expect(replayApplierScript(path.join(root, 'dist', 'cli-fast'))).toBe(script);
    expect(replayApplierScript(path.join(root, 'dist', 'main', 'core', 'platform', 'fs'))).toBe(script);
  });

  it('is not used from source, nor from a build without it: the recall applies the queue itself', () => {
    const root = tree([`dist/cli-fast/${APPLIER_FILE}`, 'main/core/platform/fs/own-dir.ts', 'other/dist/main/x.js']);
    expect(replayApplierScript(path.join(root, 'main', 'core', 'platform', 'fs'))).toBeUndefined();
    expect(replayApplierScript(path.join(root, 'other', 'dist', 'main'))).toBeUndefined();
    expect(startReplayApplier('ROLE01', undefined)).toBe(false);
  });
});
