import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../test/helpers/temp-home.js';
import type { CliContext } from '../cli-context.js';
import { buildProgram } from '../kioku.js';

let home: TempHome;
let out: string[];
let err: string[];

function context(): CliContext {
  return {
    config: home.config(),
    logger: { log() {}, info() {}, warn() {}, error() {} },
    print: (text) => void out.push(text),
    printJson: (value) => void out.push(JSON.stringify(value)),
    note: (text) => void err.push(text),
    interactive: false,
  };
}

/** `kioku <args>` in-process, through the real command table (kioku.ts GROUPS). */
async function kioku(...args: string[]): Promise<string> {
  out = [];
  err = [];
  const program = await buildProgram(context, args[0]);
  const exits = (command: typeof program) => {
    command.exitOverride();
    command.commands.forEach(exits);
  };
  exits(program);
  await program.parseAsync(['node', 'kioku', ...args]);
  return out.join('\n');
}

function role(id: string, checks: Record<string, { body: string; mode?: number }> = {}): void {
  fs.writeFileSync(path.join(home.roleHome, `${id}.identity.md`), `---\nid: ${id}\nname: ${id}\nemoji: 🧪\n---\n`);
  if (Object.keys(checks).length === 0) return;
  const dir = path.join(home.roleHome, `${id}.checks`);
  fs.mkdirSync(dir);
  for (const [name, { body, mode = 0o755 }] of Object.entries(checks)) {
    fs.writeFileSync(path.join(dir, name), `#!/bin/sh\n${body}\n`);
    fs.chmodSync(path.join(dir, name), mode);
  }
}

beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T06:00:00+08:00' });
});
afterEach(() => home.cleanup());

describe('kioku brief', () => {
  it('runs the active role by default and shows what each script did and where the memory went', async () => {
    role('ALPHA01', {
      '10-ci.sh': { body: 'echo "CI 紅燈"' },
      '20-quiet.sh': { body: 'true' },
      '30-new.sh': { body: 'echo x', mode: 0o644 },
    });
    fs.writeFileSync(path.join(home.roleHome, '.active'), 'ALPHA01\n');
    const text = await kioku('brief');
    expect(text).toMatch(/^ALPHA01: 2 check script\(s\) ran — 1 reported, 0 timed out; 1 skipped/);
    expect(text).toMatch(/reported\s+10-ci\.sh\n\s+CI 紅燈/);
    expect(text).toMatch(/silent\s+20-quiet\.sh/);
    expect(text).toMatch(/skipped\s+30-new\.sh — .*chmod \+x '.*30-new\.sh'/);
    expect(text).toMatch(/→ wrote a daily memory: .*\/ALPHA01\/daily\/.*\.md/);
    expect(err).toEqual([]);
  });

  it('--all serves every role with a checks folder; --json gives { roles: [...] }', async () => {
    role('ALPHA01', { 'a.sh': { body: 'echo 甲' } });
    role('BETA01', { 'b.sh': { body: 'true' } });
    role('GAMMA01');
    const answer = JSON.parse(await kioku('brief', '--all', '--json')) as { roles: { role: string; ran: string[]; memory: unknown }[] };
    expect(answer.roles.map((r) => [r.role, r.ran, r.memory !== null])).toEqual([
      ['ALPHA01', ['a.sh'], true],
      ['BETA01', ['b.sh'], false],
    ]);
  });

  it('a role without a checks folder: nothing to check; --all with --role is bad usage', async () => {
    role('GAMMA01');
    expect(await kioku('brief', '--role', 'GAMMA01')).toMatch(/GAMMA01: no .*GAMMA01\.checks\/ folder, nothing to check\./);
    await expect(kioku('brief', '--all', '--role', 'GAMMA01')).rejects.toThrow(/--all and --role cannot be used together/);
  });
});
