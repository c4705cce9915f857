import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexEventLabel, codexHookHash, codexHookTrust, type CodexHookPlace } from './codex-hook-trust.js';

/**
 * Codex's hook trust (issue 13). The hashes below are what Codex 0.171.0 itself computed
 * (`codex app-server`, request `hooks/list`, field `currentHash`) for these hooks.json entries;
 * the config.toml text is what its `/hooks` screen wrote after "t" (trust) and space (off).
 */
const SESSION_START = {
  event: 'SessionStart',
  matcher: 'startup|resume|clear|compact',
  entry: {
    type: 'command',
    command: '/usr/bin/node "/opt/Kioku app/dist/hooks/kioku-hook.js" session-start --assistant codex',
    timeout: 15,
  },
};
const SESSION_START_HASH = 'sha256:6e20f9cd77af926a328c682b73971dfd53f34035654240edd756c23700a11768';

describe('codexHookHash: the hash Codex compares with trusted_hash', () => {
  it('is the one Codex 0.171.0 reported for a Kioku SessionStart entry (matcher and timeout)', () => {
    expect(codexHookHash(SESSION_START)).toBe(SESSION_START_HASH);
  });

  it('drops the matcher where Codex ignores it, and fills in its 600 s default timeout', () => {
    const prompt = {
      type: 'command',
      command: '/usr/bin/node /opt/k/dist/hooks/kioku-hook.js user-prompt-submit --assistant codex',
      timeout: 10,
    };
    expect(codexHookHash({ event: 'UserPromptSubmit', matcher: undefined, entry: prompt })).toBe(
      'sha256:0fb1eea68c9982a6290ae5d9406ab53cc44b5703bb0b394d5940fd187d070966',
    );
    expect(codexHookHash({ event: 'UserPromptSubmit', matcher: 'ignored', entry: prompt })).toBe(
      'sha256:0fb1eea68c9982a6290ae5d9406ab53cc44b5703bb0b394d5940fd187d070966',
    );
    expect(codexHookHash({ event: 'UserPromptSubmit', matcher: undefined, entry: { type: 'command', command: 'echo other-tool' } })).toBe(
      'sha256:0f970b140bead6906521473bf0034c7aec1d6f13ad8a97987130c37160a58318',
    );
  });

  it('changes with the command, so a new install path is no longer trusted', () => {
    expect(
      codexHookHash({
        ...SESSION_START,
        entry: { ...SESSION_START.entry, command: SESSION_START.entry.command.replace('/opt', '/usr/local') },
      }),
    ).not.toBe(SESSION_START_HASH);
  });

  it('labels events as Codex keys them', () => {
    expect(['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact', 'PostCompact', 'SubagentStart'].map(codexEventLabel)).toEqual([
      'session_start',
      'user_prompt_submit',
      'stop',
      'pre_compact',
      'post_compact',
      'subagent_start',
    ]);
  });
});

describe('codexHookTrust: each Kioku entry as Codex would treat it', () => {
  let dir: string;
  let hooksFile: string;
  let configFile: string;
  const place = (groupIndex: number, extra: Partial<CodexHookPlace> = {}): CodexHookPlace => ({
    ...SESSION_START,
    groupIndex,
    handlerIndex: 0,
    ...extra,
  });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku codex '));
    hooksFile = path.join(dir, 'hooks.json');
    configFile = path.join(dir, 'config.toml');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('trusted, changed since, never trusted, turned off: from the tables /hooks writes', () => {
    fs.writeFileSync(
      configFile,
      [
        'model = "gpt-5"',
        '',
        '[hooks.state]',
        '',
        `[hooks.state."${hooksFile}:session_start:0:0"]`,
        `trusted_hash = "${SESSION_START_HASH}"`,
        'enabled = true',
        '',
        `[hooks.state."${hooksFile}:session_start:1:0"]`,
        'trusted_hash = "sha256:0000"',
        '',
        `[hooks.state."${hooksFile}:session_start:3:0"]`,
        `trusted_hash = "${SESSION_START_HASH}"`,
        'enabled = false',
        '',
      ].join('\n'),
    );
    const report = codexHookTrust(hooksFile, configFile, [place(0), place(1), place(2), place(3)], {});
    expect(report.problem).toBeUndefined();
    expect(report.hooks.map((h) => h.state)).toEqual(['trusted', 'modified', 'untrusted', 'disabled']);
    expect(report.hooks[0]!.key).toBe(`${hooksFile}:session_start:0:0`);
  });

  it('no config.toml: nothing is trusted yet', () => {
    expect(codexHookTrust(hooksFile, configFile, [place(0)], {}).hooks.map((h) => h.state)).toEqual(['untrusted']);
  });

  it('keys a symlinked CODEX_HOME by its real path, as Codex does', () => {
    const link = path.join(os.tmpdir(), `kioku-codex-link-${process.pid}-${Date.now()}`);
    fs.symlinkSync(dir, link);
    try {
      // The real path of the folder (the temp folder itself may be behind a symlink, as on macOS).
      const real = path.join(fs.realpathSync(dir), 'hooks.json');
      fs.writeFileSync(configFile, `[hooks.state."${real}:session_start:0:0"]\ntrusted_hash = "${SESSION_START_HASH}"\n`);
      const viaLink = path.join(link, 'hooks.json');
      expect(codexHookTrust(viaLink, path.join(link, 'config.toml'), [place(0)], { CODEX_HOME: link }).hooks[0]!.state).toBe('trusted');
      // Without CODEX_HOME Codex takes ~/.codex as HOME spells it: the link's path, not trusted here.
      expect(codexHookTrust(viaLink, path.join(link, 'config.toml'), [place(0)], {}).hooks[0]!.state).toBe('untrusted');
    } finally {
      fs.rmSync(link);
    }
  });

  it('a config.toml that is not TOML is a problem that says why and where', () => {
    fs.writeFileSync(configFile, 'model = "gpt-5"\n[hooks.state."k"\n');
    const report = codexHookTrust(hooksFile, configFile, [place(0)], {});
    expect(report.hooks).toEqual([]);
    expect(report.problem).toMatch(/^it is not valid TOML \(line 2: /);
  });
});
