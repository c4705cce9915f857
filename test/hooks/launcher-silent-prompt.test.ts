import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentBeforeClient } from '../../hooks/launcher-silent-prompt.js';
import { surelyNotACall } from '../../main/core/integrations/assistants/silent-prompt.js';
import { refreshCallNameCache } from '../../main/core/engine/role-call/call-names.js';
import { loadConfig } from '../../main/core/platform/config/config.js';
import { createRole, planRoleChange } from '../../main/core/store/roles/role-editor.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * The launcher's silent prompt (hooks/launcher-silent-prompt.ts) answers before the client is
 * loaded, so it must never be silent where the client would not be: a call it swallowed would
 * never switch the role. Every case is judged against the client's own decision on the full
 * settings (silent-prompt.ts `surelyNotACall` on `loadConfig`).
 */
let home: TempHome | undefined;
afterEach(() => home?.cleanup());

const PROMPT_ARGS = ['user-prompt-submit', '--assistant', 'claude'];

/** A home with two roles (one with an alias) and the names a prompt can call cached, as a SessionStart leaves it. */
function homeWithRoles(extraEnv: NodeJS.ProcessEnv = {}): TempHome {
  const made = makeTempHome(extraEnv);
  const config = made.config();
  for (const [id, name, aliases] of [
    ['KIOKU01', '小記', ['記記']],
    ['KIOKU02', 'Ada', []],
  ] as const) {
    const plan = planRoleChange(config, { id, name, nature: '冷靜', vibe: '簡潔', emoji: '✨', aliases: [...aliases] });
    if (plan.kind !== 'create') throw new Error(`expected to create ${id}`);
    createRole(config, plan);
  }
  expect(refreshCallNameCache(config)).toBe(true);
  return made;
}

const input = (prompt: unknown) => JSON.stringify({ session_id: 's1', hook_event_name: 'UserPromptSubmit', prompt });
const clientSilent = (env: NodeJS.ProcessEnv, prompt: unknown) => surelyNotACall(loadConfig(env), JSON.parse(input(prompt)));
const writeSettings = (h: TempHome, values: Record<string, unknown>) => {
  fs.mkdirSync(path.join(h.memoryHome, '.kioku'), { recursive: true });
  fs.writeFileSync(path.join(h.memoryHome, '.kioku', 'settings.json'), JSON.stringify(values));
};

const PROMPTS: unknown[] = [
  '幫我把部署流程的測試補齊',
  '小記，幫我看一下這段',
  '記記 在嗎',
  '@KIOKU02 take a look',
  '@Ada please',
  'ada, are you there?',
  'Adam wrote this function',
  '  小記',
  '<hook_context>小記</hook_context>\n幫我看一下',
  '<hook_context>只有注入的內容</hook_context>',
  'SessionStart:startup hook success: 小記',
  '',
  '   ',
  42,
  null,
];

describe('the launcher answers a prompt only where the client would answer nothing', () => {
  it('agrees with the client on every prompt when the settings are the defaults', () => {
    home = homeWithRoles();
    for (const prompt of PROMPTS) {
      const expected = clientSilent(home.env, prompt);
      expect({ prompt, silent: silentBeforeClient(PROMPT_ARGS, input(prompt), home.env) }).toEqual({ prompt, silent: expected });
    }
    // The sweep holds both answers: not a check that says false to everything.
    expect(silentBeforeClient(PROMPT_ARGS, input(PROMPTS[0]), home.env)).toBe(true);
    expect(silentBeforeClient(PROMPT_ARGS, input('小記，幫我看一下這段'), home.env)).toBe(false);
  });

  it('is never silent where the client is not, whatever the call settings say (environment or file)', () => {
    home = homeWithRoles();
    let silentCases = 0;
    for (const where of ['env', 'file'] as const)
      for (const enabled of [undefined, '0', '1'])
        for (const calls of [undefined, '0', '1'])
          for (const markerOnly of [undefined, '0', '1']) {
            const values = { ROLE_ENABLED: enabled, ROLE_CALL_ENABLED: calls, ROLE_CALL_MARKER_ONLY: markerOnly };
            const set = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
            writeSettings(home, where === 'file' ? set : {});
            const env = where === 'env' ? { ...home.env, ...set } : home.env;
            for (const prompt of PROMPTS) {
              const fast = silentBeforeClient(PROMPT_ARGS, input(prompt), env);
              if (fast) silentCases++;
              if (fast) expect({ set, where, prompt, client: clientSilent(env, prompt) }).toEqual({ set, where, prompt, client: true });
            }
          }
    expect(silentCases).toBeGreaterThan(50);
  });

  it('leaves the prompt to the client when the cached names no longer match the role files', () => {
    home = homeWithRoles();
    const prompt = '阿明，幫我看一下';
    expect(silentBeforeClient(PROMPT_ARGS, input(prompt), home.env)).toBe(true);
    // A third role, made without a SessionStart since: its name is not cached yet.
    const plan = planRoleChange(home.config(), { id: 'KIOKU03', name: '阿明', nature: '直率', vibe: '爽快', emoji: '🌊' });
    if (plan.kind !== 'create') throw new Error('expected to create KIOKU03');
    createRole(home.config(), plan);
    expect(silentBeforeClient(PROMPT_ARGS, input(prompt), home.env)).toBe(false);
    expect(clientSilent(home.env, prompt)).toBe(false);
    // And with no cache at all.
    fs.rmSync(path.join(home.memoryHome, '.kioku', 'call-names.json'));
    expect(silentBeforeClient(PROMPT_ARGS, input('幫我把測試補齊'), home.env)).toBe(false);
  });

  it('leaves the prompt to the client when the settings file moves the role or memory home', () => {
    home = homeWithRoles();
    const prompt = '幫我把測試補齊';
    writeSettings(home, { ROLE_SLEEP_START: '23:00' });
    expect(silentBeforeClient(PROMPT_ARGS, input(prompt), home.env)).toBe(true);
    for (const moved of [{ ROLE_HOME: path.join(home.root, 'elsewhere') }, { ROLE_MEMORY_HOME: path.join(home.root, 'mem2') }]) {
      writeSettings(home, moved);
      expect(silentBeforeClient(PROMPT_ARGS, input(prompt), home.env)).toBe(false);
    }
    // A settings file that is not JSON: the client ignores it, and so does this.
    fs.writeFileSync(path.join(home.memoryHome, '.kioku', 'settings.json'), '{ not json');
    expect(silentBeforeClient(PROMPT_ARGS, input(prompt), home.env)).toBe(true);
  });

  it('answers only the prompt event in the form the client takes, and only a JSON payload', () => {
    home = homeWithRoles();
    const text = input('幫我把測試補齊');
    expect(silentBeforeClient(['user-prompt-submit'], text, home.env)).toBe(true);
    expect(silentBeforeClient(['user-prompt-submit', '--assistant', 'gemini'], text, home.env)).toBe(true);
    for (const argv of [
      ['session-start', '--assistant', 'claude'],
      ['user-prompt-submit', '--assistant', 'copilot'],
      ['user-prompt-submit', '--part', '1'],
      ['user-prompt-submit', '--assistant'],
      [],
    ])
      expect({ argv, silent: silentBeforeClient(argv, text, home.env) }).toEqual({ argv, silent: false });
    for (const stdin of ['', '  \n', '{"prompt": "還沒寫完', 'not json', '["幫我把測試補齊"]'])
      expect({ stdin, silent: silentBeforeClient(PROMPT_ARGS, stdin, home.env) }).toEqual({ stdin, silent: false });
  });
});
