import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ORPHAN_AGE_MS, removeOrphanedTempFiles } from './orphaned-temp-files.js';

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

function file(root: string, rel: string, ageMs: number, now: number): string {
  const full = path.join(root, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, 'x');
  const at = new Date(now - ageMs);
  fs.utimesSync(full, at, at);
  return full;
}

describe('removeOrphanedTempFiles (issue 14)', () => {
  it("removes only Kioku's own temp names, and only those older than ORPHAN_AGE_MS, at any depth", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-orphans-'));
    roots.push(root);
    const now = Date.now();
    const old = ORPHAN_AGE_MS + 60_000;
    const orphans = [
      file(root, 'archive/raw/2026-03-10/.20260310-120000-ab12.md.gz.4242-deadbeef.tmp', old, now),
      file(root, 'daily/.20260301-100000-cd34.md.77-0a1b2c3d.tmp', old, now),
      file(root, '.state.json.9-1f.tmp', old, now),
    ];
    const kept = [
      file(root, 'archive/raw/2026-03-10/.20260310-120000-ab12.md.gz.4243-feedf00d.tmp', 1_000, now), // a write in progress
      file(root, 'inbox/.notes.tmp', old, now), // not one of our names
      file(root, 'inbox/draft.tmp', old, now),
      file(root, '.memory.lock.seen.tmp', old, now), // clock-skew.ts's sighting file is kept for good
      file(root, 'archive/raw/2026-03-10/20260310-120000-ab12.md.gz', old, now),
    ];
    expect(removeOrphanedTempFiles(root, now).sort()).toEqual([...orphans].sort());
    for (const gone of orphans) expect(fs.existsSync(gone), gone).toBe(false);
    for (const stays of kept) expect(fs.existsSync(stays), stays).toBe(true);
  });

  it('is quiet about a folder that does not exist', () => {
    expect(removeOrphanedTempFiles(path.join(os.tmpdir(), 'kioku-no-such-folder-x'))).toEqual([]);
  });
});
