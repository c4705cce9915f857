import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCondensedAnswer, unwrapCliOutput } from '../../main/core/engine/capture/cli-answer.js';
import { buildCapturePrompt } from '../../main/core/engine/capture/capture-prompt.js';
import { chooseCondenserCli } from '../../main/core/engine/llm-cli/cli-commands.js';
import { CliCondenser, resolveCliCondenser } from '../../main/core/engine/capture/cli-condenser.js';
import { type CondenseFailure } from '../../main/core/engine/capture/capture-types.js';
import { handleCapturedTurn } from '../../main/core/engine/capture/handle-capture.js';
import { readBonds } from '../../main/core/store/memory/bonds.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { waitFor } from '../ipc/daemon-kit.js';
import { fakeCliEnv, inboxOf, isAlive, makeFakeBin, readCalls, ROLE, turnInput, turnRecord } from './capture-test-helpers.js';

let home: TempHome;
let log: string;
beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T12:00:00+08:00' });
  log = path.join(home.root, 'fake-cli.log');
});
afterEach(() => home.cleanup());

/** A config whose PATH holds only the named fakes. */
function configWith(names: string[], mode = 'valid', extra: NodeJS.ProcessEnv = {}) {
  return home.config({ ...fakeCliEnv(makeFakeBin(home.root, names), log, mode), ...extra });
}

const TURN = ['以後都用繁體中文回覆。今天跟你聊天好開心！', '好的～我也很開心！'] as const;

describe('CLI condenser: success', () => {
  it('writes the CLI memories, with the guard rails applied and the bond appended', async () => {
    const config = configWith(['claude']);
    const report = await handleCapturedTurn(config, turnRecord(...TURN));
    expect(report).toMatchObject({ condenser: 'cli:claude', written: [expect.any(String), expect.any(String)] });
    expect(report.fallback).toBeUndefined();
    const inbox = inboxOf(home.memoryHome);
    const emotional = inbox.find((m) => m.memory_type === 'emotional')!;
    // The fake said priority 3 and no relevance: an emotional memory is raised to 4 and made warm.
    expect(emotional).toMatchObject({ priority: 4, relevance: ['emotional'], retention_stage: 'working', sleep_stage: 'encoding' });
    expect(emotional.extra.condenser).toBe('cli:claude');
    expect(readBonds(home.memoryHome, ROLE)).toEqual([expect.objectContaining({ text: '今天跟你聊天好開心', direction: 'mutual' })]);
  });

  it('accepts an answer inside a ```json fence', async () => {
    const config = configWith(['claude'], 'fenced');
    expect((await handleCapturedTurn(config, turnRecord(...TURN))).condenser).toBe('cli:claude');
  });

  it('reads gemini {response} and codex plain text', async () => {
    for (const name of ['gemini', 'codex']) {
      const config = configWith([name], 'valid', { ROLE_CLI: name });
      const result = await resolveCliCondenser(config, 'claude').condenser!.attempt(turnInput(...TURN));
      expect(result.ok).toBe(true);
    }
  });
});

describe('CLI condenser: every failure falls back to local and the turn is still written', () => {
  it.each([
    ['truncated', 'truncated-json'],
    ['invalid', 'invalid-json'],
    ['schema', 'schema-mismatch'],
    ['execution-error', 'execution-error'],
    ['is-error', 'execution-error'],
    ['exit', 'exit-code'],
    ['empty', 'empty-output'],
  ])('%s → %s', async (mode, kind) => {
    const config = configWith(['claude'], mode);
    const report = await handleCapturedTurn(config, turnRecord(...TURN));
    expect(report.fallback).toMatchObject({ from: 'cli:claude', kind });
    expect(report.condenser).toBe('local');
    expect(report.written.length).toBeGreaterThanOrEqual(1);
    expect(inboxOf(home.memoryHome).length).toBe(report.written.length);
  });

  // The fake in "sleep" mode answers only once its gate file exists, which these tests never
  // create: whatever the machine's speed, the run can only end by the timeout or the abort, and
  // before the fake's canned answer is printed. The fake, if it got as far as starting, is killed.
  it('a CLI that sleeps past ROLE_CAPTURE_TIMEOUT is killed and the local condenser answers', async () => {
    const config = configWith(['claude'], 'sleep', { ROLE_CAPTURE_TIMEOUT: '1', FAKE_CLI_GATE: path.join(home.root, 'never') });
    const report = await handleCapturedTurn(config, turnRecord(...TURN));
    expect(report.fallback).toMatchObject({ kind: 'timeout' });
    expect(report.fallback!.message).toContain('within 1 s');
    expect(report.condenser).toBe('local');
    expect(inboxOf(home.memoryHome).length).toBeGreaterThanOrEqual(1);
    for (const call of readCalls(log)) await waitFor(() => !isAlive(call.pid), `the timed-out fake CLI (pid ${call.pid}) to be killed`);
  });

  it('an abort stops the run, and the CLI with it', async () => {
    const config = configWith(['claude'], 'sleep', { FAKE_CLI_GATE: path.join(home.root, 'never') });
    const controller = new AbortController();
    const pending = resolveCliCondenser(config, 'claude').condenser!.attempt(turnInput(...TURN), controller.signal);
    // Abort once the fake is running (it has logged its call), not after a guess at how long that takes.
    const [call] = await waitFor(() => (readCalls(log).length > 0 ? readCalls(log) : undefined), 'the fake CLI to start');
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
    await waitFor(() => !isAlive(call!.pid), `the aborted fake CLI (pid ${call!.pid}) to be killed`);
  });

  it('a named CLI missing from PATH → local, reported as not-found', async () => {
    const config = configWith([], 'valid', { ROLE_CLI: 'claude' });
    const report = await handleCapturedTurn(config, turnRecord(...TURN));
    expect(report).toMatchObject({ condenser: 'local', fallback: { from: 'cli:claude', kind: 'not-found' } });
    expect(inboxOf(home.memoryHome).length).toBeGreaterThanOrEqual(1);
  });
});

describe('CLI condenser: how the CLI is run (SLEEP-6: no hooks, no transcript)', () => {
  it('claude: flags, model, env with our hooks off, stdin closed, scratch cwd', async () => {
    const config = configWith(['claude'], 'valid', { ROLE_MODEL: 'claude-test-model' });
    await handleCapturedTurn(config, turnRecord('記住：部署前先跑 e2e，token=abcdef1234567890abcdef 不要外流。', '好。'));
    const [call] = readCalls(log);
    expect(call!.argv.slice(0, 8)).toEqual([
      '-p',
      '--output-format',
      'json',
      '--settings',
      '{"disableAllHooks":true}',
      '--no-session-persistence',
      '--model',
      'claude-test-model',
    ]);
    const prompt = call!.argv.at(-1)!;
    // No role definition in this home: the role is named by its ID.
    expect(prompt).toContain('角色「TESTER01」');
    expect(prompt).toContain('部署前先跑 e2e');
    expect(prompt).not.toContain('abcdef1234567890abcdef');
    expect(prompt).toContain('關係定位必須雙邊記錄');
    expect(prompt).not.toMatch(/\{\{[A-Z_]+\}\}/);
    expect(call!.env).toMatchObject({ ROLE_ENABLED: '0', KIOKU_HOOK_DISABLED: '1' });
    expect(call!.stdin).toBe('');
    expect(fs.realpathSync(call!.cwd)).toBe(fs.realpathSync(path.join(home.memoryHome, '.kioku', 'condenser')));
  });

  it('codex: exec --ephemeral; gemini: -p <prompt> --output-format json', async () => {
    for (const name of ['codex', 'gemini']) {
      await resolveCliCondenser(configWith([name], 'valid', { ROLE_CLI: name }), undefined).condenser!.condense(turnInput(...TURN));
    }
    const [codex, gemini] = readCalls(log);
    expect(codex!.argv.slice(0, 2)).toEqual(['exec', '--ephemeral']);
    expect(codex!.env.ROLE_ENABLED).toBe('0');
    expect(gemini!.argv[0]).toBe('-p');
    expect(gemini!.argv.slice(2)).toEqual(['--output-format', 'json']);
  });

  it('ROLE_CLI=auto prefers the CLI of the assistant that fired the event, else the first found, else local', () => {
    const both = fakeCliEnv(makeFakeBin(home.root, ['claude', 'codex']), log);
    expect(chooseCondenserCli('auto', 'codex', both)?.cli).toBe('codex');
    expect(chooseCondenserCli('auto', 'gemini', both)?.cli).toBe('claude');
    const geminiOnly = fakeCliEnv(makeFakeBin(home.root, ['gemini']), log);
    expect(chooseCondenserCli('auto', 'claude', geminiOnly)?.cli).toBe('gemini');
    expect(chooseCondenserCli('auto', 'claude', fakeCliEnv(makeFakeBin(home.root, []), log))).toBeUndefined();
    expect(chooseCondenserCli('local', 'claude', both)).toBeUndefined();
  });
});

describe('CLI answer parsing', () => {
  it('tells truncated JSON from invalid JSON and an execution error', () => {
    const kind = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as CondenseFailure).kind;
      }
      return 'ok';
    };
    expect(kind(() => parseCondensedAnswer('{"memories":[{"summary":"半'))).toBe('truncated-json');
    expect(kind(() => parseCondensedAnswer('not json at all'))).toBe('invalid-json');
    expect(kind(() => unwrapCliOutput('claude-json', '{"type":"result","is_error":false,"result":"Execution error"}'))).toBe(
      'execution-error',
    );
    expect(kind(() => unwrapCliOutput('claude-json', '{"type":"result","is_er'))).toBe('truncated-json');
    expect(kind(() => unwrapCliOutput('gemini-json', '{"response":"","error":{"message":"quota"}}'))).toBe('execution-error');
    expect(kind(() => parseCondensedAnswer('以下是[結果]：{"memories":[{"summary":"一句","priority":3,"memory_type":"episodic"}]}'))).toBe(
      'ok',
    );
    expect(kind(() => unwrapCliOutput('opencode-json', '{"type":"text","part":{"text":"{\\"memories\\":[]}"}}'))).toBe('ok');
  });

  it('maps bond directions and coerces loose values', () => {
    const [memory] = parseCondensedAnswer(
      JSON.stringify([
        {
          category: 'weird',
          summary: '一句話',
          priority: '5',
          memory_type: 'Emotional',
          key_points: ['a'],
          bond: { text: '想你', direction: '使用者 -> 角色' },
        },
      ]),
    );
    expect(memory).toMatchObject({ category: 'other', priority: 5, memory_type: 'emotional', bond: { direction: 'user-to-role' } });
  });

  it('placeholders typed by the user stay literal text in the prompt', async () => {
    const prompt = await buildCapturePrompt('[{{USER_TEXT}}|{{ASSISTANT_TEXT}}|{{UNKNOWN}}]', turnInput('看 {{ASSISTANT_TEXT}}', '好'));
    expect(prompt).toBe('[看 {{ASSISTANT_TEXT}}|好|{{UNKNOWN}}]');
  });

  it('a CliCondenser without its prompt file fails as prompt-missing', async () => {
    const condenser = new CliCondenser({
      cli: 'claude',
      command: '/bin/false',
      env: {},
      cwd: home.root,
      timeoutMs: 1000,
      model: null,
      promptFile: path.join(home.root, 'nope.md'),
    });
    expect(await condenser.attempt(turnInput(...TURN))).toMatchObject({ ok: false, failure: { kind: 'prompt-missing' } });
  });
});
