import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliContext } from '../../main/cli/cli-context.js';
import { registerRoleUnlockCommand } from '../../main/cli/commands/role-unlock-command.js';
import { createLogger } from '../../main/core/platform/config/log.js';
import { claimRole } from '../../main/core/store/sessions/role-locks.js';
import { SILICA, YUI, hookEvent, makeCallHome, readLock, writeTranscript, type CallHome } from './call-fixtures.js';

/** `kioku role unlock [<ID>]` (LOCK-5), run in-process through commander. */
let home: CallHome;
afterEach(() => home?.cleanup());

function run(args: string[]): { out: string[]; json: unknown[] } {
  const out: string[] = [];
  const json: unknown[] = [];
  const config = home.config();
  const ctx: CliContext = {
    config,
    logger: createLogger({ clock: config.clock, file: undefined, stderr: false }),
    print: (text) => out.push(text),
    printJson: (value) => json.push(value),
    note: () => {},
    interactive: false,
  };
  const role = new Command('role').exitOverride();
  registerRoleUnlockCommand(role, () => ctx);
  role.parse(args, { from: 'user' });
  return { out, json };
}

function lockedHome(): CallHome {
  home = makeCallHome([SILICA, YUI]);
  const config = home.config();
  writeTranscript(home, 'sess-a');
  claimRole(config, 'SILICA01', hookEvent(home, 'sess-a'));
  claimRole(config, 'YUI01', hookEvent(home, 'sess-a'));
  return home;
}

describe('kioku role unlock', () => {
  it('releases one role by ID and says what it released', () => {
    lockedHome();
    const { out } = run(['unlock', 'SILICA01']);
    expect(out.join('\n')).toMatch(/^Released SILICA01 \(held by claude session sess-a since .+; transcript .+sess-a\.jsonl\)\.$/);
    expect(readLock(home, 'SILICA01')).toBeUndefined();
    expect(readLock(home, 'YUI01')).toBeDefined();
  });

  it('accepts a display name', () => {
    lockedHome();
    expect(run(['unlock', '結衣']).out.join('\n')).toMatch(/^Released YUI01 /);
  });

  it('without an ID releases every lock; --json lists them', () => {
    lockedHome();
    const { json } = run(['unlock', '--json']);
    expect(json).toEqual([{ released: [expect.objectContaining({ role: 'SILICA01' }), expect.objectContaining({ role: 'YUI01' })] }]);
    expect(run(['unlock']).out).toEqual(['No role locks to release.']);
    expect(run(['unlock', 'SILICA01']).out).toEqual(['SILICA01 was not locked; nothing to release.']);
  });

  it('names the mistake in a lowercase ID', () => {
    lockedHome();
    expect(() => run(['unlock', 'silica01'])).toThrow(/uppercase/);
  });
});
