import fs from 'node:fs';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../common/errors.js';
import { SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL, writeText } from '../../../test/cli/role-test-fixtures.js';
import { makeTempHome, snapshotTree, type TempHome } from '../../../test/helpers/temp-home.js';
import { createCliContext } from '../cli-context.js';
import { registerRoleCommands } from './role-commands.js';

// The command logic itself through commander, not the built CLI (dist/ may be older than the source).
let home: TempHome | undefined;
afterEach(() => home?.cleanup());

async function run(args: string[]): Promise<{ stdout: string; error?: unknown }> {
  const out = { stdout: '' };
  const ctx = createCliContext(home!.env, { stdout: (text) => (out.stdout += text), stderr: () => undefined });
  const program = new Command().exitOverride();
  registerRoleCommands(program.command('role'), () => ctx);
  try {
    await program.parseAsync(['role', ...args], { from: 'user' });
    return out;
  } catch (error) {
    return { ...out, error };
  }
}

describe('kioku role archived / role restore', () => {
  it('lists the archive, restores it by ID and says where each file went', async () => {
    home = makeTempHome({ KIOKU_NOW: '2026-02-03T04:05:06+08:00' });
    writeText(home.roleHome, 'ENGINEER01.identity.md', SPLIT_ENGINEER_IDENTITY);
    writeText(home.roleHome, 'ENGINEER01.soul.md', SPLIT_ENGINEER_SOUL);
    writeText(home.memoryHome, 'ENGINEER01/inbox/a.md', 'memory');
    const before = snapshotTree(home.roleHome);

    const deleted = await run(['delete', 'ENGINEER01']);
    expect(deleted.stdout).toContain('kioku role restore ENGINEER01');
    const listed = await run(['archived', '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id: 'ENGINEER01', idInUse: false }]);
    expect((await run(['archived'])).stdout).toMatch(/^ENGINEER01 .* archived \d{4}-\d{2}-\d{2} /);

    const restored = await run(['restore', 'ENGINEER01']);
    expect(restored.error).toBeUndefined();
    expect(restored.stdout).toContain('Restored role ENGINEER01');
    expect(snapshotTree(home.roleHome)).toEqual(before);
    expect(fs.existsSync(`${home.memoryHome}/ENGINEER01/inbox/a.md`)).toBe(true);
    expect((await run(['archived'])).stdout).toBe('No archived roles.\n');
  });

  it('fails with exit 1 and a message naming the ID when nothing is archived under it', async () => {
    home = makeTempHome({ KIOKU_NOW: '2026-02-03T04:05:06+08:00' });
    const result = await run(['restore', 'MUSE01']);
    expect(String((result.error as Error).message)).toContain('no archived role MUSE01');
    expect(exitCodeFor(result.error)).toBe(1);
  });
});
