import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, snapshotTree, type TempHome } from '../../../../test/helpers/temp-home.js';
import { SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL, writeText } from '../../../../test/cli/role-test-fixtures.js';
import { formatCompactDateTime } from '../../platform/config/clock.js';
import { writeActiveRoleId } from './role-active.js';
import { archiveRole } from './role-archive.js';
import { writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { queueReplays, replayQueueFile } from '../index/replay-queue.js';

let home: TempHome;
// Archive folders are named in local time; the expectation follows whatever TZ the tests run in.
const NOW = '2026-02-03T04:05:06+08:00';
const folder = `ENGINEER01-${formatCompactDateTime(new Date(NOW))}`;
afterEach(() => home?.cleanup());

function withEngineer(): void {
  home = makeTempHome({ KIOKU_NOW: NOW });
  writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
  writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
  writeText(home.roleHome, 'ENGINEER01.checks/ci.sh', 'echo ok\n');
  writeText(home.roleHome, '.assets/emojis/engineer01-emotions-sheet.png', 'png');
  writeText(home.roleHome, '.assets/emojis/engineer02-emotions-sheet.png', 'not this one');
  writeText(home.memoryHome, 'ENGINEER01/inbox/a.md', 'memory');
}

describe('archiveRole', () => {
  it('moves role files, checks, assets and memory into .archive, destroying nothing', () => {
    withEngineer();
    const before = { ...snapshotTree(home.roleHome), ...snapshotTree(home.memoryHome) };
    const result = archiveRole(home.config(), 'ENGINEER01');
    expect(path.basename(result.roleArchiveDir)).toBe(folder);
    expect(snapshotTree(home.roleHome)).toEqual({
      [`.archive/${folder}/ENGINEER01.identity.md`]: before['ENGINEER01.identity.md'],
      [`.archive/${folder}/ENGINEER01.soul.md`]: before['ENGINEER01.soul.md'],
      [`.archive/${folder}/ENGINEER01.checks/ci.sh`]: before['ENGINEER01.checks/ci.sh'],
      [`.archive/${folder}/.assets/emojis/engineer01-emotions-sheet.png`]: before['.assets/emojis/engineer01-emotions-sheet.png'],
      '.assets/emojis/engineer02-emotions-sheet.png': before['.assets/emojis/engineer02-emotions-sheet.png'],
    });
    expect(snapshotTree(home.memoryHome)).toEqual({ [`.archive/${folder}/inbox/a.md`]: before['ENGINEER01/inbox/a.md'] });
  });

  it('refuses the active role and the ROLE_NAME role', () => {
    withEngineer();
    writeActiveRoleId(home.roleHome, 'ENGINEER01');
    const before = snapshotTree(home.root);
    expect(() => archiveRole(home.config(), 'ENGINEER01')).toThrow(/is the active role/);
    fs.rmSync(path.join(home.roleHome, '.active'));
    expect(() => archiveRole(home.config({ ROLE_NAME: 'ENGINEER01' }), 'ENGINEER01')).toThrow(/ROLE_NAME/);
    writeActiveRoleId(home.roleHome, 'ENGINEER01');
    expect(snapshotTree(home.root)).toEqual(before);
  });

  it('uses a fresh folder when two deletes share a second', () => {
    withEngineer();
    archiveRole(home.config(), 'ENGINEER01');
    writeText(home.roleHome, 'ENGINEER01.md', '---\nname: x\n---\n');
    expect(path.basename(archiveRole(home.config(), 'ENGINEER01').roleArchiveDir)).toBe(`${folder}-2`);
  });

  it('archives a memory with the recall hits still queued for it, and leaves no queue behind (issue 17)', () => {
    withEngineer();
    const file = writeMemory(home.memoryHome, 'daily', { id: 'recalled', summary: '常被想起', hits: 1 }, 'ENGINEER01');
    const queue = replayQueueFile(home.memoryHome, 'ENGINEER01');
    queueReplays(home.memoryHome, 'ENGINEER01', NOW, [{ path: file, category: 'daily', mtimeMs: fs.statSync(file).mtimeMs }]);
    const result = archiveRole(home.config(), 'ENGINEER01');
    const archived = path.join(result.memoryArchiveDir!, 'daily', 'recalled.md');
    expect(parseFrontmatter(fs.readFileSync(archived, 'utf8')).data).toMatchObject({ hits: 2, last_replayed: NOW });
    expect(fs.existsSync(queue)).toBe(false);
    expect(fs.existsSync(`${queue}.applying`)).toBe(false);
  });
});
