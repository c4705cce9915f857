import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, snapshotTree, type TempHome } from '../../../../test/helpers/temp-home.js';
import {
  SPLIT_ENGINEER_IDENTITY,
  SPLIT_ENGINEER_SOUL,
  handMadeTarGz,
  manifestEntryFor,
  writeText,
  type TarEntrySpec,
} from '../../../../test/cli/role-test-fixtures.js';
import { formatCompactDateTime } from '../../platform/config/clock.js';
import { tryAcquireLock } from '../../platform/fs/file-lock.js';
import { memoryLockFile } from '../memory/memory-layout.js';
import { writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { parseFrontmatter } from '../../platform/frontmatter/parse-frontmatter.js';
import { queueReplays } from '../index/replay-queue.js';
import { exportRole, resolveExportTarget } from './role-export.js';
import { importRole } from './role-import.js';
import { MAX_IMPORT_BYTES } from './role-import-vetting.js';

const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function newHome(): TempHome {
  const home = makeTempHome({ KIOKU_NOW: '2026-02-03T04:05:06+08:00' });
  homes.push(home);
  return home;
}

/** ENGINEER01 with everything an export carries, plus things it must leave behind. */
function engineerHome(): TempHome {
  const home = newHome();
  writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
  writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
  fs.chmodSync(writeText(home.roleHome, 'ENGINEER01.checks/ci.sh', '#!/bin/sh\necho ok\n'), 0o755);
  writeText(home.roleHome, '.assets/emojis/engineer01-emotions-sheet.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
  writeText(home.memoryHome, 'ENGINEER01/inbox/20260101-000000-a1b2.md', '---\nid: a\n---\n\n記住：使用者喜歡簡短回答。\n');
  writeText(home.memoryHome, 'ENGINEER01/BONDS.md', '- 使用者→角色：謝謝你\n');
  return home;
}

const manifestOnly = (files: unknown[] = []) =>
  JSON.stringify({ format: 'kioku-role-export', version: 1, id: 'ENGINEER01', exportedAt: 'x', files });

describe('export → import', () => {
  it('round-trips every file byte for byte, leaving lock and temp files behind', () => {
    const source = engineerHome();
    writeText(source.roleHome, '.assets/emojis/other01-sheet.png', 'not ours');
    const expectedRoles = snapshotTree(source.roleHome);
    delete expectedRoles['.assets/emojis/other01-sheet.png'];
    const expectedMemory = snapshotTree(source.memoryHome);
    // A lock abandoned long ago (export now takes the memory lock, and a fresh one would mean "busy").
    fs.utimesSync(writeText(source.memoryHome, 'ENGINEER01/.memory.lock', '{"pid":1}'), new Date(0), new Date(0));
    writeText(source.memoryHome, 'ENGINEER01/inbox/.x.md.123-abcd.tmp', 'half');

    const result = exportRole(source.config(), 'ENGINEER01', `${source.root}/exports/`);
    expect(path.basename(result.archive)).toBe(
      `ENGINEER01-role-export-${formatCompactDateTime(new Date('2026-02-03T04:05:06+08:00'))}.tar.gz`,
    );
    expect(result.manifest.files.map((file) => file.path).sort()).toEqual([
      'memory/ENGINEER01/BONDS.md',
      'memory/ENGINEER01/inbox/20260101-000000-a1b2.md',
      'roles/.assets/emojis/engineer01-emotions-sheet.png',
      'roles/ENGINEER01.checks/ci.sh',
      'roles/ENGINEER01.identity.md',
      'roles/ENGINEER01.soul.md',
    ]);

    const target = newHome();
    const imported = importRole(target.config(), result.archive);
    expect(imported.role).toMatchObject({ id: 'ENGINEER01', name: '小豹' });
    expect(snapshotTree(target.roleHome)).toEqual(expectedRoles);
    expect(snapshotTree(target.memoryHome)).toEqual(expectedMemory);
    // Check scripts arrive NOT executable and are named for review (see the BRIEF-1 test below).
    expect(imported.checkScripts).toEqual([path.join(target.roleHome, 'ENGINEER01.checks/ci.sh')]);
  });

  it('packs the recall hits still queued into the memory files it exports (issue 17)', () => {
    const source = engineerHome();
    const file = writeMemory(source.memoryHome, 'daily', { id: 'recalled', summary: '常被想起', hits: 1 }, 'ENGINEER01');
    const at = '2026-02-03T04:05:06+08:00';
    queueReplays(source.memoryHome, 'ENGINEER01', at, [{ path: file, category: 'daily', mtimeMs: fs.statSync(file).mtimeMs }]);
    const result = exportRole(source.config(), 'ENGINEER01', `${source.root}/e.tar.gz`);
    const target = newHome();
    importRole(target.config(), result.archive);
    const imported = path.join(target.memoryHome, 'ENGINEER01', 'daily', 'recalled.md');
    expect(parseFrontmatter(fs.readFileSync(imported, 'utf8')).data).toMatchObject({ hits: 2, last_replayed: at });
  });

  it('never overwrites an existing archive and refuses unclear targets', () => {
    const source = engineerHome();
    const file = `${source.root}/x.tgz`;
    exportRole(source.config(), 'ENGINEER01', file);
    expect(() => exportRole(source.config(), 'ENGINEER01', file)).toThrow(expect.objectContaining({ code: 'ALREADY_EXISTS' }));
    expect(() => resolveExportTarget(`${source.root}/x.zip`, 'ENGINEER01', new Date())).toThrow(
      expect.objectContaining({ code: 'BAD_USAGE' }),
    );
  });

  it('refuses to import over an existing role, writing nothing', () => {
    const source = engineerHome();
    const { archive } = exportRole(source.config(), 'ENGINEER01', `${source.root}/e.tar.gz`);
    const before = [snapshotTree(source.roleHome), snapshotTree(source.memoryHome)];
    expect(() => importRole(source.config(), archive)).toThrow(expect.objectContaining({ code: 'ALREADY_EXISTS' }));
    expect([snapshotTree(source.roleHome), snapshotTree(source.memoryHome)]).toEqual(before);
  });
});

describe('import refuses hostile or damaged archives, writing nothing', () => {
  const identity = { path: 'roles/ENGINEER01.identity.md', body: SPLIT_ENGINEER_IDENTITY };
  const soul = { path: 'roles/ENGINEER01.soul.md', body: SPLIT_ENGINEER_SOUL };
  const cases: [string, TarEntrySpec[], RegExp][] = [
    [
      'a ../ entry',
      [{ path: 'kioku-export.json', body: manifestOnly() }, identity, soul, { path: 'roles/../../evil.md', body: 'x' }],
      /"roles\/\.\.\/\.\.\/evil\.md" has an absolute path or a "\.\." segment/,
    ],
    [
      'an absolute entry',
      [
        { path: 'kioku-export.json', body: manifestOnly() },
        { path: '/tmp/evil.md', body: 'x' },
      ],
      /"\/tmp\/evil\.md" has an absolute path/,
    ],
    [
      'a symlink entry',
      [
        { path: 'kioku-export.json', body: manifestOnly() },
        { path: 'roles/ENGINEER01.md', type: 'SymbolicLink', linkpath: '/etc/passwd' },
      ],
      /"roles\/ENGINEER01\.md" is a SymbolicLink/,
    ],
    [
      'a hardlink entry',
      [
        { path: 'kioku-export.json', body: manifestOnly() },
        { path: 'roles/ENGINEER01.md', type: 'Link', linkpath: 'kioku-export.json' },
      ],
      /is a Link/,
    ],
    [
      'an entry of another role',
      [
        { path: 'kioku-export.json', body: manifestOnly() },
        { path: 'memory/OTHER01/x.md', body: 'x' },
      ],
      /"memory\/OTHER01\/x\.md" is outside/,
    ],
    ['no manifest', [identity, soul], /no kioku-export\.json manifest/],
    // Right sizes, wrong SHA-256: gets as far as extraction; a wrong size is refused earlier (below).
    [
      'a file that does not match its checksum',
      [
        {
          path: 'kioku-export.json',
          body: manifestOnly(
            [identity, soul].map((file) => ({ path: file.path, sha256: '0'.repeat(64), size: Buffer.byteLength(file.body) })),
          ),
        },
        identity,
        soul,
      ],
      /does not match its manifest checksum/,
    ],
  ];

  it.each(cases)('%s', (_name, entries, message) => {
    const home = newHome();
    const archive = path.join(home.root, 'evil.tar.gz');
    fs.writeFileSync(archive, handMadeTarGz(entries));
    expect(() => importRole(home.config(), archive)).toThrow(message);
    expect(snapshotTree(home.roleHome)).toEqual({});
    expect(snapshotTree(home.memoryHome)).toEqual({});
    expect(fs.existsSync(path.join(home.root, 'evil.md'))).toBe(false);
  });

  it('names a file that is not gzip, and a truncated one', () => {
    const home = newHome();
    const notGzip = writeText(home.root, 'notes.tar.gz', 'plain text');
    expect(() => importRole(home.config(), notGzip)).toThrow(`${notGzip}: not a gzip file`);
    const truncated = writeText(home.root, 'cut.tar.gz', handMadeTarGz([identity, soul]).subarray(0, 30));
    expect(() => importRole(home.config(), truncated)).toThrow(`${truncated}: corrupt or truncated archive`);
    expect(snapshotTree(home.roleHome)).toEqual({});
  });
});

describe('import never schedules code: check scripts arrive without the executable bit (BRIEF-1)', () => {
  it("writes every file 0600 like Kioku's own (issue 14; was 0644), even one the archive marks 0755, and names the check scripts to review", () => {
    const home = newHome();
    const files: TarEntrySpec[] = [
      { path: 'roles/ENGINEER01.identity.md', body: SPLIT_ENGINEER_IDENTITY },
      { path: 'roles/ENGINEER01.soul.md', body: SPLIT_ENGINEER_SOUL, mode: 0o755 },
      { path: 'roles/ENGINEER01.checks/run.sh', body: '#!/bin/sh\necho pwned\n', mode: 0o755 },
      { path: 'roles/ENGINEER01.checks/lib/helper.sh', body: 'x=1\n', mode: 0o755 },
    ];
    const archive = writeText(home.root, 'checks.tar.gz', handMadeTarGz([manifestEntryFor('ENGINEER01', files), ...files]));
    const result = importRole(home.config(), archive);
    for (const file of result.written) expect((fs.statSync(file).mode & 0o777).toString(8), file).toBe('600');
    expect((fs.statSync(path.join(home.roleHome, 'ENGINEER01.checks/lib')).mode & 0o777).toString(8)).toBe('700');
    expect(result.checkScripts).toEqual([
      path.join(home.roleHome, 'ENGINEER01.checks/run.sh'),
      path.join(home.roleHome, 'ENGINEER01.checks/lib/helper.sh'),
    ]);
  });
});

describe('export', () => {
  it('gives a second and third folder export within the same second -2 and -3, never overwriting', () => {
    const source = engineerHome();
    const folder = `${source.root}/exports/`;
    const first = exportRole(source.config(), 'ENGINEER01', folder).archive;
    const firstBytes = fs.readFileSync(first);
    const second = exportRole(source.config(), 'ENGINEER01', folder).archive;
    const third = exportRole(source.config(), 'ENGINEER01', folder).archive;
    const stamp = formatCompactDateTime(new Date('2026-02-03T04:05:06+08:00'));
    expect([first, second, third].map((file) => path.basename(file))).toEqual([
      `ENGINEER01-role-export-${stamp}.tar.gz`,
      `ENGINEER01-role-export-${stamp}-2.tar.gz`,
      `ENGINEER01-role-export-${stamp}-3.tar.gz`,
    ]);
    expect(fs.readFileSync(first).equals(firstBytes)).toBe(true);
  });

  it('refuses, writing nothing, while a consolidation holds the memory lock; exports once it is released', () => {
    const source = engineerHome();
    const lock = tryAcquireLock(memoryLockFile(source.memoryHome, 'ENGINEER01'), { purpose: 'consolidation' })!;
    const exports = path.join(source.root, 'exports');
    try {
      expect(() => exportRole(source.config(), 'ENGINEER01', `${exports}/`)).toThrow(
        expect.objectContaining({ code: 'LOCKED', message: expect.stringContaining('consolidating; try again in a minute') }),
      );
      expect(fs.existsSync(exports)).toBe(false);
    } finally {
      lock.release();
    }
    const { manifest } = exportRole(source.config(), 'ENGINEER01', `${exports}/`);
    expect(manifest.files.some((file) => file.path.endsWith('.lock'))).toBe(false);
    // Our own lock is gone again: the role is not left locked by the export.
    expect(fs.existsSync(memoryLockFile(source.memoryHome, 'ENGINEER01'))).toBe(false);
  });

  it('leaves every lock file and lock-takeover grave behind, in the memory folder and among check scripts', () => {
    const source = engineerHome();
    writeText(source.memoryHome, 'ENGINEER01/state.json.lock', '{"pid":1}');
    writeText(source.memoryHome, 'ENGINEER01/BONDS.md.lock', '{"pid":1}');
    writeText(source.memoryHome, 'ENGINEER01/.memory.lock.stale-1-2', '{"pid":1}');
    writeText(source.memoryHome, 'ENGINEER01/digests/2026-01.md.lock.stale-3-4', '{"pid":1}');
    writeText(source.roleHome, 'ENGINEER01.checks/run.lock', '{"pid":1}');
    const { manifest } = exportRole(source.config(), 'ENGINEER01', `${source.root}/e.tgz`);
    expect(manifest.files.map((file) => file.path).filter((file) => /\.lock|\.stale-/.test(file))).toEqual([]);
  });

  it.each([
    ['a memory folder of another role', (home: TempHome) => `${home.memoryHome}/NIGHT01/`],
    ['the memory home', (home: TempHome) => `${home.memoryHome}/backup.tar.gz`],
    ['the role home', (home: TempHome) => `${home.roleHome}/`],
    ['a check-script folder', (home: TempHome) => `${home.roleHome}/ENGINEER01.checks/e.tgz`],
  ])('refuses a target inside %s (usage error), writing nothing', (_name, targetOf) => {
    const source = engineerHome();
    writeText(source.memoryHome, 'NIGHT01/inbox/x.md', 'night');
    const before = [snapshotTree(source.roleHome), snapshotTree(source.memoryHome)];
    expect(() => exportRole(source.config(), 'ENGINEER01', targetOf(source))).toThrow(
      expect.objectContaining({ code: 'BAD_USAGE', message: expect.stringMatching(/is inside ROLE_(MEMORY_)?HOME/) }),
    );
    expect([snapshotTree(source.roleHome), snapshotTree(source.memoryHome)]).toEqual(before);
  });

  it('refuses a target that reaches a home through a symlink', () => {
    const source = engineerHome();
    const link = path.join(source.root, 'looks-harmless');
    fs.symlinkSync(source.memoryHome, link);
    expect(() => exportRole(source.config(), 'ENGINEER01', `${link}/`)).toThrow(expect.objectContaining({ code: 'BAD_USAGE' }));
    expect(fs.readdirSync(source.memoryHome)).toEqual(['ENGINEER01']);
  });
});

describe('import vetting: what an archive holds must fit together before anything is extracted', () => {
  const identity: TarEntrySpec = { path: 'roles/ENGINEER01.identity.md', body: SPLIT_ENGINEER_IDENTITY };
  const soul: TarEntrySpec = { path: 'roles/ENGINEER01.soul.md', body: SPLIT_ENGINEER_SOUL };

  function refusedCleanly(entries: TarEntrySpec[], message: RegExp | string): void {
    const home = newHome();
    const archive = writeText(home.root, 'evil.tar.gz', handMadeTarGz(entries));
    expect(() => importRole(home.config(), archive)).toThrow(message);
    expect(() => importRole(home.config(), archive)).toThrow(
      expect.objectContaining({ message: expect.not.stringMatching(/corrupt|ENOTDIR|EEXIST/) }),
    );
    expect(snapshotTree(home.roleHome)).toEqual({});
    expect(snapshotTree(home.memoryHome)).toEqual({});
  }

  it('refuses a file entry that is also used as a folder, naming both entries', () => {
    const files = [identity, soul, { path: 'memory/ENGINEER01/inbox', body: 'file' }, { path: 'memory/ENGINEER01/inbox/a.md', body: 'a' }];
    refusedCleanly(
      [manifestEntryFor('ENGINEER01', files), ...files],
      /entry "memory\/ENGINEER01\/inbox" is a file, but entry "memory\/ENGINEER01\/inbox\/a\.md" puts something inside it/,
    );
  });

  it('refuses an archive whose entries add up to more than the cap, at the header, without inflating it', () => {
    const files = [identity, soul, { path: 'memory/ENGINEER01/big.md', body: '' }];
    const twoGiB = 2 * 1024 ** 3;
    // Declared, not written: the header alone must be enough to refuse it.
    const bomb = { path: 'memory/ENGINEER01/big.md', declaredSize: twoGiB + 1 };
    const manifest = manifestEntryFor('ENGINEER01', files);
    const listed = JSON.parse(manifest.body!) as { files: { path: string; size: number }[] };
    listed.files[2]!.size = twoGiB + 1;
    refusedCleanly([{ ...manifest, body: JSON.stringify(listed) }, identity, soul, bomb], /its files add up to more than 2\.00 GiB/);
    expect(MAX_IMPORT_BYTES).toBe(twoGiB);
  });

  it('refuses a file whose size disagrees with the manifest, before extracting it', () => {
    const files = [identity, soul, { path: 'memory/ENGINEER01/big.md', body: 'x' }];
    // Declared 1.5 GiB (under the cap) but listed as 1 byte: refused at its header, not inflated, not "corrupt".
    const lying = { path: 'memory/ENGINEER01/big.md', declaredSize: 1.5 * 1024 ** 3 };
    refusedCleanly(
      [manifestEntryFor('ENGINEER01', files), identity, soul, lying],
      '"memory/ENGINEER01/big.md" is 1610612736 bytes in the archive but 1 byte in its manifest',
    );
  });

  it('refuses a size disagreement even when the manifest comes last', () => {
    const files = [identity, soul];
    const manifest = manifestEntryFor('ENGINEER01', files);
    const listed = JSON.parse(manifest.body!) as { files: { path: string; size: number }[] };
    listed.files[1]!.size += 1;
    refusedCleanly(
      [identity, soul, { ...manifest, body: JSON.stringify(listed) }],
      /"roles\/ENGINEER01\.soul\.md" is \d+ bytes in the archive but \d+ bytes in its manifest/,
    );
  });

  it('skips lock files and lock-takeover graves an archive carries, listed or not in its manifest', () => {
    const home = newHome();
    const memory: TarEntrySpec = { path: 'memory/ENGINEER01/inbox/a.md', body: 'a' };
    const locks: TarEntrySpec[] = [
      { path: 'memory/ENGINEER01/.memory.lock', body: '{"pid":1}' },
      { path: 'memory/ENGINEER01/state.json.lock', body: '{"pid":1}' },
      { path: 'memory/ENGINEER01/.memory.lock.stale-1-2', body: '{"pid":1}' },
      { path: 'roles/ENGINEER01.checks/run.lock', body: '{"pid":1}' },
    ];
    const unlisted: TarEntrySpec = { path: 'memory/ENGINEER01/BONDS.md.lock', body: '{"pid":2}' };
    const files = [identity, soul, memory, ...locks];
    const archive = writeText(home.root, 'locks.tar.gz', handMadeTarGz([manifestEntryFor('ENGINEER01', files), ...files, unlisted]));
    const result = importRole(home.config(), archive);
    expect(result.skipped).toEqual([...locks, unlisted].map((lock) => lock.path));
    expect(Object.keys(snapshotTree(home.memoryHome))).toEqual(['ENGINEER01/inbox/a.md']);
    expect(Object.keys(snapshotTree(home.roleHome)).sort()).toEqual(['ENGINEER01.identity.md', 'ENGINEER01.soul.md']);
  });
});

describe('import reads what it would write (issue 14)', () => {
  const identity = { path: 'roles/ENGINEER01.identity.md', body: SPLIT_ENGINEER_IDENTITY };
  const soul = { path: 'roles/ENGINEER01.soul.md', body: SPLIT_ENGINEER_SOUL };
  const bomb = [
    '---',
    'id: 20260101-000000-b0b0',
    'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
    'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
    'tags: *b',
    '---',
    'lol',
    '',
  ].join('\n');

  it.each([
    ['a memory file', { path: 'memory/ENGINEER01/daily/20260101-000000-b0b0.md', body: bomb }],
    [
      'the identity file',
      {
        path: 'roles/ENGINEER01.identity.md',
        body: SPLIT_ENGINEER_IDENTITY.replace('---\n', `---\n${bomb.split('\n').slice(2, 4).join('\n')}\n`),
      },
    ],
  ])('refuses an archive with a YAML alias bomb in %s, naming it, writing nothing', (_name, planted) => {
    const home = newHome();
    const files = [planted.path === identity.path ? planted : identity, soul, ...(planted.path === identity.path ? [] : [planted])];
    const archive = writeText(home.root, 'bomb.tar.gz', handMadeTarGz([manifestEntryFor('ENGINEER01', files), ...files]));
    expect(() => importRole(home.config(), archive)).toThrow(
      new RegExp(
        `${archive}: "${planted.path.replace(/\./g, '\\.')}" cannot be loaded: its front matter uses a YAML anchor.*nothing was imported`,
      ),
    );
    expect(snapshotTree(home.roleHome)).toEqual({});
    expect(snapshotTree(home.memoryHome)).toEqual({});
  });

  it('imports & and * inside values as they are (no false positives)', () => {
    const home = newHome();
    const memory = {
      path: 'memory/ENGINEER01/daily/20260101-000000-c0c0.md',
      body: '---\nid: 20260101-000000-c0c0\nsummary: R&D *重要*\ntags: [R&D]\n---\n本文 & *強調*\n',
    };
    const files = [identity, soul, memory];
    const archive = writeText(home.root, 'ok.tar.gz', handMadeTarGz([manifestEntryFor('ENGINEER01', files), ...files]));
    expect(importRole(home.config(), archive).warnings).toEqual([]);
    expect(fs.readFileSync(path.join(home.memoryHome, 'ENGINEER01/daily/20260101-000000-c0c0.md'), 'utf8')).toBe(memory.body);
  });

  it("warns, naming both IDs, when the identity says another ID than the manifest; imports under the manifest's and leaves the file as written", () => {
    const home = newHome();
    const other = { path: identity.path, body: SPLIT_ENGINEER_IDENTITY.replace(/^id: .*$/m, 'id: NIGHT01') };
    expect(other.body).toContain('id: NIGHT01');
    const files = [other, soul];
    const archive = writeText(home.root, 'renamed.tar.gz', handMadeTarGz([manifestEntryFor('ENGINEER01', files), ...files]));
    const result = importRole(home.config(), archive);
    expect(result.role.id).toBe('ENGINEER01');
    expect(result.warnings).toEqual([
      expect.stringMatching(
        /roles\/ENGINEER01\.identity\.md says id "NIGHT01", but the archive .* is role ENGINEER01; it was imported as ENGINEER01/,
      ),
    ]);
    expect(fs.readFileSync(path.join(home.roleHome, 'ENGINEER01.identity.md'), 'utf8')).toBe(other.body);
  });
});
