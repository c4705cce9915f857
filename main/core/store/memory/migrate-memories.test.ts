import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySeed000Fixture, fingerprints, SEED000_ROLE } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, snapshotTree, type TempHome } from '../../../../test/helpers/temp-home.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { MEMORY_KEYS } from './memory-file.js';
import { listMemoryFiles, loadRoleMemories } from './memory-layout.js';
import { migrateMemories } from './migrate-memories.js';

let home: TempHome;
let roleDir: string;
beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T12:00:00+08:00' });
  roleDir = copySeed000Fixture(home.memoryHome);
});
afterEach(() => home.cleanup());

const bodyAfterFrontmatter = (text: string) => text.replace(/^---\n[\s\S]*?\n---\n/, '').replace(/^\n/, '');

describe('migrateMemories (PM-6)', () => {
  it('dry run reports what would change and changes nothing', () => {
    const before = snapshotTree(home.memoryHome);
    const result = migrateMemories(home.config(), [SEED000_ROLE], { dryRun: true });
    expect(result.roles[0]).toMatchObject({ role: SEED000_ROLE, files: 6, changed: 6 });
    expect(snapshotTree(home.memoryHome)).toEqual(before);
  });

  it('adds every MEM-2 field, keeps unknown keys and never touches the body', () => {
    const originals = Object.fromEntries(
      listMemoryFiles(home.memoryHome, SEED000_ROLE).map((ref) => [ref.path, fs.readFileSync(ref.path, 'utf8')]),
    );
    const loadedBefore = loadRoleMemories(home.memoryHome, SEED000_ROLE).memories;
    migrateMemories(home.config(), [SEED000_ROLE]);
    for (const [file, original] of Object.entries(originals)) {
      const text = fs.readFileSync(file, 'utf8');
      const { data } = parseFrontmatter(text);
      expect(
        MEMORY_KEYS.filter((key) => !Object.hasOwn(data, key)),
        file,
      ).toEqual([]);
      const originalBody = original.startsWith('---') ? bodyAfterFrontmatter(original) : original;
      expect(bodyAfterFrontmatter(text), file).toBe(originalBody);
    }
    const skill = parseFrontmatter(fs.readFileSync(path.join(roleDir, 'skill', '20261105-140000-0a1b.md'), 'utf8')).data;
    expect(skill).toMatchObject({ source_session: 'abc-123', cues: ['部署', 'deploy', 'release'], created: '2026/11/05 14:00:00' });
    const loadedAfter = loadRoleMemories(home.memoryHome, SEED000_ROLE).memories;
    expect(loadedAfter.map(({ path: _p, ...m }) => m)).toEqual(loadedBefore.map(({ path: _p, ...m }) => m));
  });

  it('is idempotent: a second run changes nothing and reports 0', () => {
    migrateMemories(home.config(), [SEED000_ROLE]);
    const after = fingerprints(roleDir);
    expect(migrateMemories(home.config(), [SEED000_ROLE]).roles[0]).toMatchObject({ changed: 0, files: 6 });
    expect(fingerprints(roleDir)).toEqual(after);
  });

  it('leaves a corrupt file alone and reports it', () => {
    const broken = path.join(roleDir, 'daily', 'broken.md');
    fs.writeFileSync(broken, Buffer.from([0x66, 0x6f, 0xff, 0xfe]));
    const result = migrateMemories(home.config(), [SEED000_ROLE]);
    expect(result.roles[0]?.problems).toEqual([{ path: broken, message: 'the file is not UTF-8 text; left as it is' }]);
    expect(fs.readFileSync(broken)).toEqual(Buffer.from([0x66, 0x6f, 0xff, 0xfe]));
  });
});
