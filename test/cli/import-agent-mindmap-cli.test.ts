import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from '../helpers/bundle-entry.js';
import { writeMemoryFixture } from '../helpers/memory-fixtures.js';
import type { CliResult } from '../helpers/run-cli.js';
import { makeTempHome, snapshotTree, type TempHome } from '../helpers/temp-home.js';
import { SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL, writeText } from './role-test-fixtures.js';

/**
 * `kioku import`, `kioku role agent` and `kioku memory mindmap` as a user runs them: a real
 * process, exit codes (0, 1 conflict, 2 usage, 3 confirm), `--json`. The CLI is bundled from
 * source (bundle-entry.ts), so this does not depend on dist/.
 */
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'import');
let cli: string;
beforeAll(() => {
  cli = bundleEntry('test/ipc/fixtures/kioku-cli.ts');
});

const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function newHome(): TempHome {
  const home = makeTempHome({ KIOKU_NOW: '2026-08-10T12:00:00+08:00' });
  homes.push(home);
  return home;
}

function kioku(home: TempHome, args: string[]): CliResult {
  const result = spawnSync(process.execPath, [cli, ...args], { env: home.env, input: '', encoding: 'utf8', timeout: 60_000 });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

describe('kioku import (CLI)', () => {
  it('--dry-run --json writes nothing; a real run writes and lists it; recall then finds a Simplified query', () => {
    const home = newHome();
    const before = snapshotTree(home.root);
    const dry = kioku(home, ['import', '--from', 'jsc-persona', path.join(FIXTURES, 'jsc-persona'), '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(snapshotTree(home.root)).toEqual(before);
    const plan = JSON.parse(dry.stdout);
    expect(plan).toMatchObject({ from: 'jsc-persona', dryRun: true, conflicts: [] });
    expect(plan.memories.length).toBeGreaterThan(10);

    const real = kioku(home, ['import', '--from', 'jsc-persona', path.join(FIXTURES, 'jsc-persona')]);
    expect(real.code).toBe(0);
    expect(real.stdout).toMatch(/\+ LUMI01 {2}Lumi {2}← jsc-persona:lumi: created, active/);
    expect(real.stdout).toMatch(/\+ KURO01 .*memories only/);
    expect(real.stdout).toMatch(/kioku role new --id KURO01/);
    expect(real.stdout).toMatch(/short-term\.jsonl#L3: judged and not kept/);
    expect(real.stdout).toContain(`${plan.changes} change(s).`);

    const recall = kioku(home, ['memory', 'recall', '--role', 'LUMI01', '--query', '纸本笔记', '--json']);
    expect(recall.code).toBe(0);
    expect(JSON.parse(recall.stdout).map((m: { summary: string }) => m.summary)).toEqual(['用戶習慣用紙本筆記整理會議重點。']);
  });

  it('a FACT.md conflict exits 1 after importing the rest; an unknown --from is bad usage (2)', () => {
    const home = newHome();
    fs.writeFileSync(path.join(home.memoryHome, 'FACT.md'), '- 我的事實\n');
    const result = kioku(home, ['import', '--from', 'dsh', path.join(FIXTURES, 'dsh-home')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/Global facts: .*FACT\.md CONFLICT: left as it is/);
    expect(result.stderr).toMatch(/already holds other facts/);
    expect(fs.existsSync(path.join(home.roleHome, 'LUMI01.identity.md'))).toBe(true);
    expect(fs.readFileSync(path.join(home.memoryHome, 'FACT.md'), 'utf8')).toBe('- 我的事實\n');

    const bad = kioku(home, ['import', '--from', 'persona-memory', path.join(FIXTURES, 'dsh-home')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--from "persona-memory" is not known/);
  });
});

describe('kioku role agent and kioku memory mindmap (CLI)', () => {
  it('writes the agent file, asks for a token (exit 3) before replacing it, and prints the mind map data', () => {
    const home = newHome();
    writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
    writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
    writeMemoryFixture(home.memoryHome, 'ENGINEER01', 'skill', 'a', { tags: ['vitest', '測試'] });
    writeMemoryFixture(home.memoryHome, 'ENGINEER01', 'important', 'b', { tags: ['測試', 'CI (GitHub)'], links: ['a'] });
    const dir = path.join(home.root, 'project', '.claude', 'agents');
    const created = kioku(home, ['role', 'agent', 'ENGINEER01', dir, '--json']);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      action: 'created',
      id: 'ENGINEER01',
      name: 'engineer01',
      file: path.join(dir, 'engineer01.md'),
    });

    const soul = path.join(home.roleHome, 'ENGINEER01.soul.md');
    fs.writeFileSync(soul, fs.readFileSync(soul, 'utf8').replace('簡潔直白、偶爾吐槽。', '溫和耐心。'));
    const before = fs.readFileSync(path.join(dir, 'engineer01.md'), 'utf8');
    const ask = kioku(home, ['role', 'agent', 'ENGINEER01', dir]);
    expect(ask.code).toBe(3);
    expect(ask.stdout).toMatch(/^- 簡潔直白、偶爾吐槽。$/m);
    expect(ask.stdout).toMatch(/^\+ 溫和耐心。$/m);
    const token = /--confirm ([0-9a-f]{10})/.exec(ask.stdout)![1]!;
    expect(fs.readFileSync(path.join(dir, 'engineer01.md'), 'utf8')).toBe(before);
    const replaced = kioku(home, ['role', 'agent', 'ENGINEER01', dir, '--confirm', token]);
    expect(replaced.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'engineer01.md'), 'utf8')).toContain('溫和耐心。');

    const map = JSON.parse(kioku(home, ['memory', 'mindmap', '--role', 'ENGINEER01', '--json']).stdout);
    expect(map.mermaid).toBe(
      'mindmap\n  root(("小豹"))\n    important["重要"]\n      c1["測試"]\n      c2["CI (GitHub)"]\n    skill["技能"]\n      c3["vitest"]\n',
    );
    expect(map.nodes).toEqual([
      // 測試 is in one skill and one important memory: a tie goes to the earlier category.
      { id: 'c1', label: '測試', weight: 2, category: 'important' },
      { id: 'c2', label: 'CI (GitHub)', weight: 1, category: 'important' },
      { id: 'c3', label: 'vitest', weight: 1, category: 'skill' },
    ]);
    expect(map.edges).toEqual([
      { source: 'c1', target: 'c2', weight: 2, together: 1, linked: 1 },
      { source: 'c1', target: 'c3', weight: 2, together: 1, linked: 1 },
      { source: 'c2', target: 'c3', weight: 1, together: 0, linked: 1 },
    ]);
  });
});
