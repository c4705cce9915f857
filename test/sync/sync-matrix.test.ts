import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal, appendJournal } from '../../main/core/store/notes/journal.js';
import { appendBond, readBonds } from '../../main/core/store/memory/bonds.js';
import { listMemoryFiles, listMemoryRoles } from '../../main/core/store/memory/memory-layout.js';
import { archiveRole } from '../../main/core/store/roles/role-archive.js';
import { runSleep } from '../../main/core/engine/sleep/run-sleep.js';
import { createLocalPlanner } from '../../main/core/engine/sleep/local-planner/index.js';
import { syncNow } from '../../main/core/engine/sync/sync-now.js';
import { guardChild } from '../helpers/child-guard.js';
import { initMachine, makeCluster, remember, writeRole, type Cluster, type Machine } from './sync-kit.js';

/**
 * The multi-machine matrix (X-SYNC): a desk and a laptop on the bare repository's path, a server
 * over `git daemon` (git://), interleaved captures, bonds, journal lines, an edit, a deletion,
 * a role created and a role deleted, a sleep with its lease — then every memory exactly once on
 * every machine. The table printed at the end is the figure the issue asks for.
 */
const ROLE = 'LUMI01';
let cluster: Cluster | undefined;
afterEach(() => {
  cluster?.cleanup();
  cluster = undefined;
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

async function gitDaemon(base: string): Promise<string> {
  const port = await freePort();
  const child = guardChild(
    spawn(
      'git',
      [
        'daemon',
        '--reuseaddr',
        '--export-all',
        '--enable=receive-pack',
        `--base-path=${base}`,
        '--listen=127.0.0.1',
        `--port=${port}`,
        base,
      ],
      {
        stdio: 'ignore',
        env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      },
    ),
    5 * 60_000,
  );
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return `git://127.0.0.1:${port}/remote.git`;
    if (child.exitCode !== null) break;
    // A readiness poll, not a timing check: git daemon has no other "listening" signal.
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('git daemon did not start');
}

/** Every memory of every role on a machine as `ROLE/id` (with duplicates, if any). */
function allMemories(m: Machine): string[] {
  const home = m.env.ROLE_MEMORY_HOME!;
  return listMemoryRoles(home).flatMap((role) => listMemoryFiles(home, role).map((ref) => `${role}/${path.basename(ref.path, '.md')}`));
}

describe('three machines, one memory', () => {
  it('interleaved captures, edits, deletions, role creation and deletion and a sleep: every memory exactly once everywhere', async () => {
    cluster = makeCluster();
    const desk = cluster.machine('desk');
    const laptop = cluster.machine('laptop');
    const server = cluster.machine('server');
    const viaDaemon = await gitDaemon(cluster.root);
    writeRole(desk, ROLE, '露米');
    writeRole(desk, 'OLDROLE01', '舊角色');
    const start: string[] = [];
    for (let i = 0; i < 5; i++) start.push(`${ROLE}/${await remember(desk, ROLE, 'daily', `起點記憶 ${i}`)}`);
    start.push(`OLDROLE01/${await remember(desk, 'OLDROLE01', 'daily', '舊角色的記憶')}`);
    await initMachine(desk, cluster.remote);
    await initMachine(laptop, cluster.remote);
    await initMachine(server, viaDaemon);
    const before = { desk: allMemories(desk).length, laptop: allMemories(laptop).length, server: allMemories(server).length };

    const expected = new Set(start);
    const add = async (m: Machine, role: string, category: 'inbox' | 'daily', text: string) =>
      expected.add(`${role}/${await remember(m, role, category, text)}`);
    const bonds: string[] = [];
    const journal: string[] = [];
    let minute = 0;
    const at = (m: Machine) =>
      m.config({ KIOKU_NOW: `2026-12-02T0${Math.floor(minute / 60)}:${String(minute++ % 60).padStart(2, '0')}:00+08:00` });
    for (let round = 0; round < 3; round++) {
      for (const m of [desk, server, laptop]) {
        await add(m, ROLE, 'inbox', `${m.name} 第 ${round} 輪待整理`);
        await add(m, ROLE, 'daily', `${m.name} 第 ${round} 輪記憶`);
        const bond = `${m.name} 第 ${round} 輪的感謝`;
        await appendBond(at(m), ROLE, { text: bond, direction: 'user-to-role' });
        bonds.push(bond);
        const line = `${m.name} journal ${round}`;
        await appendJournal(at(m), { text: line });
        journal.push(line);
        await syncNow(m.config());
      }
    }
    // A role created on the laptop, a role deleted on the desk, a memory deleted on the server.
    writeRole(laptop, 'NOVA01', '諾娃');
    await add(laptop, 'NOVA01', 'daily', '新角色的第一個記憶');
    const archived = archiveRole(desk.config(), 'OLDROLE01');
    expected.delete(start[5]!);
    const gone = start[0]!;
    fs.rmSync(path.join(server.env.ROLE_MEMORY_HOME!, `${gone}.md`.replace('/', '/daily/')));
    expected.delete(gone);
    // The same memory edited on two machines: the body on the server, its hits on the laptop.
    const edited = (m: Machine) => path.join(m.env.ROLE_MEMORY_HOME!, ROLE, 'daily', `${start[1]!.split('/')[1]}.md`);
    fs.writeFileSync(edited(server), fs.readFileSync(edited(server), 'utf8').replace('起點記憶 1', '起點記憶 1（伺服器補充）'));
    fs.writeFileSync(edited(laptop), fs.readFileSync(edited(laptop), 'utf8').replace('hits: 0', 'hits: 4'));
    for (const m of [laptop, desk, server]) await syncNow(m.config());

    // The desk sleeps LUMI01 (taking the lease); the laptop, the same night, waits.
    const slept = await runSleep(desk.config({ KIOKU_NOW: '2026-12-02T01:00:00+08:00' }), {
      role: ROLE,
      force: true,
      reason: 'sleep',
      planner: createLocalPlanner(desk.config()),
    });
    const waited = await runSleep(laptop.config({ KIOKU_NOW: '2026-12-02T01:05:00+08:00' }), {
      role: ROLE,
      force: true,
      reason: 'sleep',
      planner: createLocalPlanner(laptop.config()),
    });
    expect(slept.roles[0]).toMatchObject({ ok: true, processed: 9 });
    expect(waited.roles[0]).toMatchObject({ processed: 0, elsewhere: 'desk' });
    for (const m of [server, laptop, desk, server, laptop]) await syncNow(m.config());

    // After the sleep: the inbox items became consolidated memories (new ids) and left the inbox.
    const finalDesk = allMemories(desk);
    const inboxLeft = finalDesk.filter(
      (key) =>
        expected.has(key) &&
        key.startsWith(`${ROLE}/`) &&
        fs.existsSync(path.join(desk.env.ROLE_MEMORY_HOME!, ROLE, 'inbox', `${key.split('/')[1]}.md`)),
    );
    expect(inboxLeft).toEqual([]);
    const kept = [...expected].filter((key) => finalDesk.includes(key));
    const consolidatedInbox = [...expected].filter((key) => !finalDesk.includes(key));
    expect(consolidatedInbox).toHaveLength(9); // exactly the nine inbox items, archived by the one sleep

    const rows: string[] = [];
    for (const m of [desk, laptop, server]) {
      const mine = allMemories(m);
      const duplicated = mine.length - new Set(mine).size;
      const lost = kept.filter((key) => !mine.includes(key)).length;
      expect(mine.sort()).toEqual(finalDesk.sort());
      expect(duplicated).toBe(0);
      expect(lost).toBe(0);
      const home = m.env.ROLE_MEMORY_HOME!;
      const raw = fs
        .readdirSync(path.join(home, ROLE, 'archive', 'raw'), { recursive: true })
        .filter((n) => String(n).endsWith('.gz')).length;
      expect(raw).toBe(9);
      const bondTexts = readBonds(home, ROLE)
        .map((b) => b.text)
        .reverse();
      expect(bondTexts.filter((t) => bonds.includes(t))).toEqual(bonds);
      expect(readJournal(path.join(home, 'JOURNAL.jsonl')).entries.map((e) => e.text)).toEqual(journal);
      expect(fs.existsSync(path.join(m.env.ROLE_HOME!, 'NOVA01.identity.md'))).toBe(true);
      expect(fs.existsSync(path.join(m.env.ROLE_HOME!, 'OLDROLE01.identity.md'))).toBe(false);
      expect(fs.existsSync(path.join(home, path.relative(desk.env.ROLE_MEMORY_HOME!, archived.memoryArchiveDir!)))).toBe(true);
      const editedText = fs.readFileSync(edited(m), 'utf8');
      expect(editedText).toContain('起點記憶 1（伺服器補充）');
      expect(editedText).toContain('hits: 4');
      rows.push(
        `| ${m.name} | ${before[m.name as keyof typeof before]} | ${mine.length} | ${kept.length} | ${mine.length - kept.length} | ${lost} | ${duplicated} | ${raw} | ${bondTexts.length} | ${readJournal(path.join(home, 'JOURNAL.jsonl')).entries.length} |`,
      );
    }
    console.log(
      [
        '| machine | memories after init | memories at the end | kept (not slept) | made by the sleep | lost | duplicated | inbox archived once | bonds | journal lines |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        ...rows,
      ].join('\n'),
    );
  });
});
