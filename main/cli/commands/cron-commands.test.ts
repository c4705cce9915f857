import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../test/helpers/temp-home.js';
import type { CronDeps } from '../../core/integrations/setup/cron-install.js';
import type { CliContext } from '../cli-context.js';
import { buildProgram } from '../kioku.js';
import { registerInstallCronCommand, registerRemoveCronCommand } from './cron-commands.js';

let home: TempHome;
let out: string[];
let err: string[];
let crontab: string;
let writes: number;

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

const deps = (): CronDeps => ({
  runner: {
    read: () => crontab,
    write: (text) => {
      crontab = text;
      writes++;
    },
  },
  install: { node: process.execPath, entry: path.join(home.root, 'kioku.js') },
  serviceRunning: () => true,
  cronZone: CRON_ZONE,
});

/** cron's clock: a zone other than the suite's, so the install output names both. */
const CRON_ZONE = process.env.TZ === 'UTC' ? 'Asia/Tokyo' : 'UTC';

async function run(...args: string[]): Promise<string> {
  const program = new Command('kioku').exitOverride();
  registerInstallCronCommand(program.command('install-cron'), context, deps());
  registerRemoveCronCommand(program.command('remove-cron'), context, deps());
  out = [];
  err = [];
  await program.parseAsync(['node', 'kioku', ...args]);
  return out.join('\n');
}

beforeEach(() => {
  home = makeTempHome();
  crontab = '# mine\n0 4 * * * /usr/bin/backup\n';
  writes = 0;
});
afterEach(() => home.cleanup());

describe('kioku install-cron / remove-cron', () => {
  it('installs, says so, is idempotent, and removes only its own lines', async () => {
    fs.writeFileSync(path.join(home.roleHome, 'ALPHA01.identity.md'), '---\nid: ALPHA01\nname: A\nemoji: 🧪\n---\n');
    fs.mkdirSync(path.join(home.roleHome, 'ALPHA01.checks'));
    const text = await run('install-cron');
    expect(text).toMatch(/^installed 3 cron entries:/);
    expect(text).toMatch(/0 \* \* \* \*\s+kioku sleep/);
    expect(text).toMatch(/\*\/10 \* \* \* \*\s+kioku nap/);
    expect(text).toMatch(/0 \* \* \* \*\s+kioku brief --scheduled --all/);
    expect(text).toContain(
      `time zone: ${process.env.TZ} (cron itself runs in ${CRON_ZONE}; the hourly lines check the window in ${process.env.TZ})`,
    );
    expect(text).toMatch(/morning brief for: ALPHA01/);
    expect(crontab.startsWith('# mine\n0 4 * * * /usr/bin/backup\n')).toBe(true);

    expect(await run('install-cron')).toMatch(/^the crontab already has these 3 entries; nothing changed/);
    expect(writes).toBe(1);

    const json = JSON.parse(await run('install-cron', '--json')) as {
      entries: { kind: string; line: string }[];
      changed: boolean;
      launcher: string;
    };
    expect(json.changed).toBe(false);
    expect(json.entries.map((e) => e.kind)).toEqual(['sleep', 'nap', 'brief']);
    expect(json.entries.every((e) => e.line.includes(`${json.launcher} --cron`) && e.line.endsWith(`# kioku:${e.kind}`))).toBe(true);

    expect(await run('remove-cron')).toBe('removed 3 Kioku cron entries; the launcher was deleted.');
    expect(crontab).toBe('# mine\n0 4 * * * /usr/bin/backup\n');
    expect(await run('remove-cron')).toBe('no Kioku cron entries to remove.');
  });

  it('--dry-run prints the lines and writes nothing; warnings go to stderr', async () => {
    const text = await run('install-cron', '--dry-run');
    expect(text).toMatch(/^would write 2 cron entries \(dry run: nothing changed\):/);
    expect(text).toMatch(/--cron sleep # kioku:sleep$/m);
    expect(writes).toBe(0);
    expect(err.join('\n')).toMatch(/kioku: warning: no role has a .*checks\/ folder/);
  });
});

describe('registration in the kioku command', () => {
  it('brief, install-cron, remove-cron and memory restore are there', async () => {
    // Every group's command exists; only the named group's code is loaded.
    const program = await buildProgram(context, 'install-cron');
    const names = program.commands.map((c) => c.name());
    expect(program.commands.find((c) => c.name() === 'install-cron')?.options.map((o) => o.long)).toContain('--dry-run');
    expect(names).toEqual(expect.arrayContaining(['brief', 'install-cron', 'remove-cron']));
    const memory = await buildProgram(context, 'memory');
    expect(memory.commands.find((c) => c.name() === 'memory')?.commands.map((c) => c.name())).toContain('restore');
  });
});
